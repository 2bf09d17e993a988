package org.rma4j.litmus.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.rma4j.litmus.model.Model;
import org.rma4j.litmus.model.ModelResult;
import org.rma4j.litmus.run.Histogram;
import org.rma4j.litmus.run.Report;
import org.rma4j.litmus.run.RunConfig;
import org.rma4j.litmus.run.Runner;
import org.rma4j.litmus.run.Verdict;
import org.rma4j.litmus.syntax.LitmusException;
import org.rma4j.litmus.syntax.Parser;
import org.rma4j.litmus.syntax.Program;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code litmus run FILE...}: run each test N times on rma4j and compare with the model, litmus7 style.
 */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run litmus tests on rma4j (one JVM per process, or threads) and print the histogram of final"
    + " states, each marked allowed or FORBIDDEN, the Observation line and the verdict. Exit status 1 if a"
    + " forbidden state was observed, 2 if a file or a job failed.")
final class RunCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Litmus files.")
    List<Path> files;

    @Option(names = {"-n",
        "--iterations"}, defaultValue = "10000", description = "Runs per test (default ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--mode", defaultValue = "processes", description = "processes (one JVM per litmus process, through the rma4j launcher) or threads (default ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the random delays (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--delay", defaultValue = ""
        + RunConfig.DELAY_DEFAULT, description = "Bound of the random spin delay before each statement; 0 disables (default ${DEFAULT-VALUE}).")
    int delay;

    @Mixin
    ModelOptionsMixin model;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final RunConfig config = new RunConfig(iterations, seed, delay, mode(mode), null);
        int status = 0;
        for (final Path file : files) {
            try {
                final Program program = Parser.parse(file);
                final ModelResult allowed = Model.allowed(program, model.options());
                final long start = System.nanoTime();
                final Histogram histogram = Runner.of(config.mode()).run(program, config, progress(program, err));
                final Verdict verdict = new Verdict(program, allowed, histogram);
                final java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();
                try (java.io.PrintStream ps = new java.io.PrintStream(buffer, true,
                    java.nio.charset.StandardCharsets.UTF_8)) {
                    Report.print(verdict, config, (System.nanoTime() - start) / 1e9, ps);
                }
                out.print(buffer.toString(java.nio.charset.StandardCharsets.UTF_8));
                out.println();
                out.flush();
                if (!verdict.passed()) {
                    status = Math.max(status, LitmusCommand.EXIT_FORBIDDEN);
                }
            } catch (final LitmusException e) {
                err.println(e.getMessage());
                status = LitmusCommand.EXIT_ERROR;
            } catch (final RuntimeException e) {
                err.println(file + ": run failed: " + e);
                status = LitmusCommand.EXIT_ERROR;
            }
        }
        return status;
    }

    static RunConfig.Mode mode(final String text) {
        return switch (text.toLowerCase(java.util.Locale.ROOT)) {
            case "processes", "process", "p" -> RunConfig.Mode.PROCESSES;
            case "threads", "thread", "t" -> RunConfig.Mode.THREADS;
            default -> throw new IllegalArgumentException("--mode must be processes or threads, not " + text);
        };
    }

    /** Progress lines on stderr, at most one per second, for runs long enough to need them. */
    private java.util.function.LongConsumer progress(final Program program, final PrintWriter err) {
        final long[] last = {System.nanoTime()};
        return done -> {
            final long now = System.nanoTime();
            if (now - last[0] >= 1_000_000_000L) {
                last[0] = now;
                err.println(program.name() + ": " + done + "/" + iterations + " runs");
                err.flush();
            }
        };
    }
}
