package org.rma4j.litmus.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.rma4j.litmus.model.ModelOptions;
import org.rma4j.litmus.run.RunConfig;
import org.rma4j.litmus.run.Suite;
import org.rma4j.litmus.run.SuiteReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code litmus suite DIR...}: run every litmus file and write summary.md and summary.json.
 */
@Command(name = "suite", mixinStandardHelpOptions = true, description = "Run every .litmus file of the given files and directories, print progress, and write"
    + " summary.md and summary.json with per-rule counts (cf. coreRMA Table 6). Exit status 1 if a test"
    + " observed a forbidden state or could not run.")
final class SuiteCommand implements Callable<Integer> {
    @Parameters(paramLabel = "PATH", arity = "1..*", description = "Litmus files or directories.")
    List<Path> paths;

    @Option(names = {"-n",
        "--iterations"}, defaultValue = "1000", description = "Runs per test (default ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--mode", defaultValue = "processes", description = "processes or threads (default ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the random delays (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--delay", defaultValue = ""
        + RunConfig.DELAY_DEFAULT, description = "Delay bound (default ${DEFAULT-VALUE}).")
    int delay;

    @Option(names = {"-o",
        "--out"}, defaultValue = "litmus-summary", description = "Directory for summary.md and summary.json (default ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--batch", defaultValue = "1", description = "In process mode, run up to this many tests of one"
        + " process count in one job (one JVM start per rank per batch; default ${DEFAULT-VALUE}).")
    int batch;

    @Mixin
    ModelOptionsMixin model;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        final PrintWriter stdout = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final List<Path> files = Suite.files(paths);
        if (files.isEmpty()) {
            err.println("litmus suite: no .litmus files in " + paths);
            return LitmusCommand.EXIT_ERROR;
        }
        final RunConfig config = new RunConfig(iterations, seed, delay, RunCommand.mode(mode), null);
        final ModelOptions options = model.options();
        final List<Suite.Row> rows = Suite.run(files, config, options, line -> {
            err.println(line);
            err.flush();
        }, batch);
        Files.createDirectories(out);
        final String markdown = SuiteReport.markdown(rows, config, options);
        Files.writeString(out.resolve("summary.md"), markdown);
        Files.writeString(out.resolve("summary.json"), SuiteReport.json(rows, config, options));
        stdout.print(markdown);
        final long failed = rows.stream().filter(r -> !r.passed()).count();
        stdout.println();
        stdout.println("Suite: " + rows.size() + " tests, " + failed + " failed; summary in "
            + out.resolve("summary.md") + " and " + out.resolve("summary.json"));
        return failed == 0 ? 0 : LitmusCommand.EXIT_FORBIDDEN;
    }
}
