package org.rma4j.bench.profile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs Linux {@code perf}: checks that it can record, records a command with its children, and reports one
 * process's samples in the form {@link PerfReport#parse} reads.
 */
final class Perf {
    /** What to say when perf is missing or cannot record. */
    static final String INSTALL_HINT = "perf is needed (Debian: apt-get install linux-perf; Ubuntu: "
        + "apt-get install linux-tools-generic linux-tools-$(uname -r)); as a user other than root, allow "
        + "sampling with: sysctl kernel.perf_event_paranoid=1";

    private final String executable;

    Perf(final String executable) {
        this.executable = executable;
    }

    /**
     * Records a trivial command, to fail early with {@link #INSTALL_HINT} if perf is absent or not allowed.
     *
     * @throws IllegalStateException with perf's output and the hint.
     */
    void check(final Path scratch) throws InterruptedException {
        final Path data = scratch.resolve("check.data");
        try {
            final Result result = run(
                List.of(executable, "record", "-F", "99", "-g", "-o", data.toString(), "--", "true"), 60, true);
            if (result.exitCode() != 0) {
                throw new IllegalStateException("perf record fails (exit " + result.exitCode() + "): "
                    + result.output().strip() + "\n" + INSTALL_HINT);
            }
        } finally {
            delete(data);
        }
    }

    /**
     * Runs {@code command} under {@code perf record -F frequency -g}, which follows every process it starts,
     * its standard output and error going to this process's.
     *
     * @return perf's exit status (the command's, unless perf itself failed).
     */
    int record(final Path data, final int frequency, final List<String> command, final long timeoutSeconds)
        throws InterruptedException {
        final List<String> full = new ArrayList<>(
            List.of(executable, "record", "-F", Integer.toString(frequency), "-g", "-o", data.toString(), "--"));
        full.addAll(command);
        final Process process;
        try {
            process = new ProcessBuilder(full).inheritIO().start();
        } catch (final IOException e) {
            throw new IllegalStateException("cannot start " + executable + ": " + e.getMessage() + "\n" + INSTALL_HINT,
                e);
        }
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
            return -1;
        }
        return process.exitValue();
    }

    /**
     * @param skipPercent the first part of the recording left out, % of its time ({@code perf report --time
     *                    P%-100%}): the JVMs' start and the first warm-up, before the steady state.
     * @return the report of process {@code pid}'s samples in {@code data}: one line per thread name, shared
     *         object and symbol, with sample counts, tab-separated, without call chains.
     * @throws IllegalStateException if perf report fails.
     */
    PerfReport report(final Path data, final long pid, final int skipPercent) throws InterruptedException {
        final Result result = run(List.of(executable, "report", "-i", data.toString(), "--stdio", "--no-children", "-n",
            "--sort", "comm,dso,sym", "-g", "none", "--percent-limit", "0", "-t", "\t", "--pid", Long.toString(pid),
            "--time", skipPercent + "%-100%"), 600, false);
        if (result.exitCode() != 0) {
            throw new IllegalStateException("perf report of process " + pid + " fails: " + result.output());
        }
        return PerfReport.parse(result.output());
    }

    private record Result(int exitCode, String output) {
    }

    /**
     * Runs {@code command}; its standard output (and its standard error if {@code withErrors}) is the result's
     * output.
     */
    private static Result run(final List<String> command, final long timeoutSeconds, final boolean withErrors)
        throws InterruptedException {
        final Path output;
        final Process process;
        try {
            output = Files.createTempFile("rma4j-perf", ".txt");
            final ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(output.toFile());
            if (withErrors) {
                builder.redirectErrorStream(true);
            } else {
                builder.redirectError(ProcessBuilder.Redirect.DISCARD);
            }
            process = builder.start();
        } catch (final IOException e) {
            throw new IllegalStateException(
                "cannot start " + command.get(0) + ": " + e.getMessage() + "\n" + INSTALL_HINT, e);
        }
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
                return new Result(-1, "timed out: " + String.join(" ", command));
            }
            return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            delete(output);
        }
    }

    static void delete(final Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot remove " + file, e);
        }
    }
}
