package org.rma4j.litmus.cli;

import java.io.PrintWriter;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code litmus}: the command-line entry point ({@code java -jar litmus/target/rma4j-litmus.jar}).
 * Subcommands: {@code model} (allowed states, like herd7), {@code run} (run on rma4j, like litmus7),
 * {@code gen} (generate tests up to a bound), {@code suite} (run a directory, write a summary).
 */
@Command(name = "litmus", mixinStandardHelpOptions = true, version = "rma4j litmus 0.1.0", description = "RMA litmus tests for rma4j: the coreRMA + MPI-3 model, a runner, a generator.", subcommands = {
    ModelCommand.class, RunCommand.class, GenCommand.class, SuiteCommand.class, GraphCommand.class,
    CommandLine.HelpCommand.class})
public final class LitmusCommand implements Runnable {
    /** Exit status when a forbidden state was observed (or a suite test failed). */
    public static final int EXIT_FORBIDDEN = 1;
    /** Exit status for a file that cannot be read or a job that failed. */
    public static final int EXIT_ERROR = 2;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(final String[] args) {
        System.exit(execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs the command line with the given output streams; returns the exit status. */
    public static int execute(final PrintWriter out, final PrintWriter err, final String... args) {
        final CommandLine line = new CommandLine(new LitmusCommand());
        line.setOut(out);
        line.setErr(err);
        line.setCaseInsensitiveEnumValuesAllowed(true);
        line.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("litmus: " + e.getMessage());
            return EXIT_ERROR;
        });
        final int status = line.execute(args);
        out.flush();
        err.flush();
        return status;
    }
}
