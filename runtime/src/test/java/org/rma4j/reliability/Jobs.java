package org.rma4j.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;

/**
 * Runs the rank programs of this suite as real multi-process jobs through the {@link Launcher} API,
 * with JVM options that make the many short-lived rank JVMs start fast.
 */
final class Jobs {
    /** Options of every rank JVM: C1 only, serial GC, class data sharing, no perf data file. */
    static final List<String> FAST_JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
        "-XX:-UsePerfData", "-Xmx64m");

    private Jobs() {
    }

    static Launcher.Builder launcher(final Path base, final int ranks, final Class<?> main, final Output output,
        final String... args) {
        return Launcher.builder().ranks(ranks).mainClass(main.getName()).args(args).jvmOptions(FAST_JVM)
            .baseDirectory(base).output(output.out::add).errorOutput(output.err::add);
    }

    static Outcome run(final Path base, final int ranks, final Class<?> main, final String... args)
        throws InterruptedException {
        final Output output = new Output();
        final JobResult result = launcher(base, ranks, main, output, args).build().run();
        return new Outcome(result, output);
    }

    static Outcome run(final Path base, final int ranks, final Duration grace, final Class<?> main,
        final String... args) throws InterruptedException {
        final Output output = new Output();
        final JobResult result = launcher(base, ranks, main, output, args).grace(grace).build().run();
        return new Outcome(result, output);
    }

    /** The lines a job printed, each prefixed {@code [rank] } by the launcher. */
    static final class Output {
        final List<String> out = Collections.synchronizedList(new ArrayList<>());
        final List<String> err = Collections.synchronizedList(new ArrayList<>());
    }

    /** How a job ended and what it printed. */
    record Outcome(JobResult result, Output output) {
        /**
         * @return the lines of standard output of {@code rank} that start with {@code prefix}, without
         *         the rank prefix.
         */
        List<String> lines(final int rank, final String prefix) {
            final String start = "[" + rank + "] " + prefix;
            synchronized (output.out) {
                return output.out.stream().filter(line -> line.startsWith(start))
                    .map(line -> line.substring(line.indexOf(']') + 2)).toList();
            }
        }

        /**
         * @return the value of {@code key=value} in a line, or null.
         */
        static String field(final String line, final String key) {
            final Matcher matcher = Pattern.compile("(?:^|\\s)" + Pattern.quote(key) + "=(\\S*)").matcher(line);
            return matcher.find() ? matcher.group(1) : null;
        }

        boolean errContains(final String text) {
            synchronized (output.err) {
                return output.err.stream().anyMatch(line -> line.contains(text));
            }
        }

        String describe() {
            synchronized (output.out) {
                synchronized (output.err) {
                    return result + "\n--- stdout\n" + String.join("\n", output.out) + "\n--- stderr\n"
                        + String.join("\n", output.err);
                }
            }
        }
    }
}
