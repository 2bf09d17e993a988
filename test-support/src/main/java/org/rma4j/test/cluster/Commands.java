package org.rma4j.test.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Short commands of the cluster's setup and teardown ({@code ip}, {@code unshare}), run to completion. */
final class Commands {
    private static final long TIMEOUT_SECONDS = 60;
    private static final List<String> SYSTEM_DIRECTORIES = List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin");

    /** What a command printed and how it ended. */
    record Result(int exitCode, String output) {
        boolean succeeded() {
            return exitCode == 0;
        }
    }

    private Commands() {
    }

    /**
     * @return the path of an executable: on the PATH, else in the system directories.
     * @throws IllegalStateException naming the Debian package, if there is none.
     */
    static String executable(final String name, final String debianPackage) {
        final String path = System.getenv().getOrDefault("PATH", "");
        for (final String directory : (path + ":" + String.join(":", SYSTEM_DIRECTORIES)).split(":")) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, name))) {
                return Path.of(directory, name).toString();
            }
        }
        throw new IllegalStateException(name + " not found on the PATH nor in " + SYSTEM_DIRECTORIES
            + ": install it (Debian: apt-get install " + debianPackage + "; bin/verify does)");
    }

    /** @return how the command ended (exit code -1 if it could not start or outlived its timeout). */
    static Result run(final List<String> command) {
        try {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            final String output;
            try (InputStream in = process.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(-1, output + "\n(timed out after " + TIMEOUT_SECONDS + " s)");
            }
            return new Result(process.exitValue(), output);
        } catch (final IOException e) {
            return new Result(-1, e.toString());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, e.toString());
        }
    }

    /**
     * Runs a setup step.
     *
     * @throws IllegalStateException with the command and its output, if it fails.
     */
    static String check(final List<String> command) {
        final Result result = run(command);
        if (!result.succeeded()) {
            throw new IllegalStateException(
                String.join(" ", command) + " failed (exit " + result.exitCode() + "): " + result.output().strip());
        }
        return result.output();
    }

    /** Deletes a file tree, not following symbolic links. */
    static void deleteTree(final Path root) {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the command line of a process, for messages. */
    static Optional<String> commandLine(final long pid) {
        return ProcessHandle.of(pid).flatMap(handle -> handle.info().commandLine());
    }
}
