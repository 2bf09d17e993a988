package org.rma4j.launch;

import java.io.File;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.rma4j.shm.ControlLayout;
import org.rma4j.shm.JobDirectory;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code rmarun} command (see {@code bin/rmarun}): runs a Java main class as a job of N processes,
 * like {@code mpiexec}.
 *
 * <pre>
 * rmarun -n N [-cp CLASSPATH] [--jvm-opt OPT]... [--grace-ms MS] [--shm-dir DIR] MainClass [args...]
 * </pre>
 *
 * Option parsing stops at the main class: everything after it goes to the program unchanged. The ranks'
 * class path is the user's ({@code -cp}, else the {@code CLASSPATH} environment variable) followed by the
 * launcher's own class path, so a user passes only their own jars. Exit status: the job's exit code
 * ({@link JobResult#exitCode()}; {@link Launcher#EXIT_OUTPUT_LOST} if every rank succeeded but output
 * could not be delivered), 2 for a usage error, 1 if the job could not be started (also for a base
 * directory that others may write without the sticky bit). If rmarun itself is killed with SIGKILL,
 * its ranks end by themselves and remove the job directory ({@link RankMain}).
 */
@Command(name = "rmarun", mixinStandardHelpOptions = true, versionProvider = RmaRun.Version.class,
    sortOptions = false, usageHelpAutoWidth = true,
    description = "Runs MainClass as a job of N JVMs (ranks) that share memory through rma4j. Each output line "
        + "is prefixed with its rank; the exit status is the first non-zero exit status of a rank.")
public final class RmaRun implements Callable<Integer> {
    /** Exit status when the job could not be started. */
    public static final int EXIT_CANNOT_START = 1;
    /** Exit status of a usage error. */
    public static final int EXIT_USAGE = CommandLine.ExitCode.USAGE;

    private static final String USAGE =
        "rmarun -n N [-cp CLASSPATH] [--jvm-opt OPT]... [--grace-ms MS] [--shm-dir DIR] MainClass [args...]"
            + " | rmarun --clean [--shm-dir DIR]";

    @Spec
    private CommandSpec spec;

    @Option(names = "-n", paramLabel = "N", description = "Number of ranks (1..4096).")
    private int ranks;

    @Option(names = "--clean", description = "Remove the job directories whose launcher is gone, and exit. "
        + "A live job's files are never touched (every launch also does this first).")
    private boolean clean;

    @Option(names = {"-cp", "-classpath", "--class-path"}, paramLabel = "CLASSPATH",
        description = "Class path of the program (default: $CLASSPATH). The runtime's own jars are appended.")
    private String classpath;

    @Option(names = "--jvm-opt", paramLabel = "OPT",
        description = "A JVM option for every rank (repeatable; use --jvm-opt=-Xmx1g for options with a dash).")
    private List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--grace-ms", paramLabel = "MS", defaultValue = "1000",
        description = "How long the other ranks may run after one failed before they are stopped "
            + "(default: ${DEFAULT-VALUE}).")
    private long graceMs;

    @Option(names = "--shm-dir", paramLabel = "DIR",
        description = "Directory in which the job directory is created (default: /dev/shm, or -Drma4j.shm.dir).")
    private Path shmDir;

    @Parameters(index = "0", arity = "0..1", paramLabel = "MainClass", description = "Main class every rank runs.")
    private String mainClass;

    @Parameters(index = "1..*", paramLabel = "args", description = "Arguments of the program.")
    private List<String> args = new ArrayList<>();

    private PrintStream out = System.out;
    private PrintStream err = System.err;

    /**
     * Runs the command and exits the JVM with its status.
     *
     * @param args the command line.
     */
    public static void main(final String[] args) {
        System.exit(execute(System.out, System.err, args));
    }

    /**
     * Runs the command without exiting the JVM.
     *
     * @param out  receives the ranks' standard output and the help text.
     * @param err  receives the ranks' standard error, the launcher's messages and usage errors.
     * @param args the command line.
     * @return the exit status {@link #main} would exit with.
     */
    public static int execute(final PrintStream out, final PrintStream err, final String... args) {
        final RmaRun command = new RmaRun();
        command.out = out;
        command.err = err;
        return new CommandLine(command)
            .setStopAtPositional(true)
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .setParameterExceptionHandler((exception, arguments) -> {
                final PrintWriter writer = exception.getCommandLine().getErr();
                writer.println(Launcher.MESSAGE_PREFIX + exception.getMessage());
                writer.println("Usage: " + USAGE + " (rmarun --help for details)");
                return EXIT_USAGE;
            })
            .setExecutionExceptionHandler((exception, commandLine, parseResult) -> {
                commandLine.getErr().println(Launcher.MESSAGE_PREFIX + "cannot run the job: " + exception.getMessage());
                return EXIT_CANNOT_START;
            })
            .execute(args);
    }

    /**
     * Validates the options and runs the job.
     *
     * @return the job's exit code.
     */
    @Override
    public Integer call() throws InterruptedException {
        if (clean) {
            final Path base = shmDir != null ? shmDir : JobDirectory.defaultBase();
            final List<Path> removed = JobDirectory.sweepStale(base);
            err.println(Launcher.MESSAGE_PREFIX + "removed " + removed.size() + " stale job director"
                + (removed.size() == 1 ? "y" : "ies") + " under " + base);
            removed.forEach(dir -> err.println(Launcher.MESSAGE_PREFIX + "  " + dir));
            return 0;
        }
        if (mainClass == null) {
            throw new ParameterException(spec.commandLine(), "Missing required parameter: 'MainClass'");
        }
        if (ranks < 1 || ranks > ControlLayout.MAX_RANKS) {
            throw new ParameterException(spec.commandLine(),
                "-n must be between 1 and " + ControlLayout.MAX_RANKS + ", got " + ranks);
        }
        if (graceMs < 0) {
            throw new ParameterException(spec.commandLine(), "--grace-ms must not be negative, got " + graceMs);
        }
        final Launcher launcher = Launcher.builder()
            .ranks(ranks)
            .mainClass(mainClass)
            .args(args)
            .classpath(rankClasspath(classpath, System.getenv("CLASSPATH"), System.getProperty("java.class.path")))
            .jvmOptions(jvmOptions)
            .grace(Duration.ofMillis(graceMs))
            .baseDirectory(shmDir != null ? shmDir : JobDirectory.defaultBase())
            .output(out)
            .errorOutput(err)
            .build();
        return launcher.run().exitCode();
    }

    /**
     * The ranks' class path: the user's (the option, else the environment variable), then the launcher's.
     *
     * @param option      value of {@code -cp}, or null.
     * @param environment value of {@code CLASSPATH}, or null.
     * @param own         the launcher's {@code java.class.path}, or null.
     * @return the joined class path, without empty entries.
     */
    static String rankClasspath(final String option, final String environment, final String own) {
        final String user = option != null ? option : environment;
        final List<String> parts = new ArrayList<>();
        for (final String part : new String[] {user, own}) {
            if (part != null && !part.isBlank() && !parts.contains(part)) {
                parts.add(part);
            }
        }
        return String.join(File.pathSeparator, parts);
    }

    /**
     * Reports the rma4j version from the jar manifest and the running JVM.
     */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            final String version = RmaRun.class.getPackage().getImplementationVersion();
            return new String[] {
                "rmarun (rma4j) " + (version != null ? version : "development build"),
                "JVM: " + Runtime.version() + " " + System.getProperty("java.vm.name") + " at "
                    + System.getProperty("java.home"),
            };
        }
    }
}
