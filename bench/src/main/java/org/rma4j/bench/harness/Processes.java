package org.rma4j.bench.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs external commands (compilers, mpirun, the C peers) with a time limit, and finds executables on
 * the PATH.
 */
final class Processes {
    private Processes() {
    }

    /** How a command ended: its exit code (-1 on timeout) and its output lines. */
    record Outcome(int exitCode, List<String> output) {
        boolean succeeded() {
            return exitCode == 0;
        }

        String tail() {
            return String.join("\n", output.subList(Math.max(0, output.size() - 15), output.size()));
        }
    }

    /**
     * Runs {@code command} in {@code directory}, merging standard error into the output, which goes line
     * by line to {@code log} as well as into the outcome. Kills the process and its descendants after
     * {@code timeout}.
     */
    static Outcome run(final List<String> command, final Path directory, final Duration timeout,
        final Consumer<String> log) {
        final Process process;
        try {
            process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        } catch (final IOException e) {
            return new Outcome(-1, List.of("cannot start " + command + ": " + e.getMessage()));
        }
        final List<String> lines = new ArrayList<>();
        final Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                    log.accept(line);
                }
            } catch (final IOException e) {
                // the process ended or was killed
            }
        });
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                reader.join(1000);
                synchronized (lines) {
                    lines.add("timed out after " + timeout.toSeconds() + " s: " + String.join(" ", command));
                    return new Outcome(-1, List.copyOf(lines));
                }
            }
            reader.join(5000);
        } catch (final InterruptedException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
        synchronized (lines) {
            return new Outcome(process.exitValue(), List.copyOf(lines));
        }
    }

    /**
     * @return the executable {@code name} found on {@code path} (a PATH-style list), if any.
     */
    static Optional<Path> which(final String name, final String path) {
        if (path == null) {
            return Optional.empty();
        }
        for (final String dir : path.split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            final Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * @return the first line {@code command} prints that holds a version number (a digit after a space
     *         or a colon), or empty if it fails.
     */
    static Optional<String> versionLine(final List<String> command, final Path directory) {
        final Outcome outcome = run(command, directory, Duration.ofSeconds(30), line -> {
        });
        if (!outcome.succeeded()) {
            return Optional.empty();
        }
        return outcome.output().stream().map(String::strip).filter(l -> l.matches(".*[\\s:]\\d.*"))
            .map(l -> l.replaceAll("\\s+", " ")).findFirst();
    }

    static void deleteTree(final Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (var tree = Files.walk(root)) {
            for (final Path entry : tree.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.deleteIfExists(entry);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot remove " + root, e);
        }
    }
}
