package org.rma4j.launch;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.rma4j.shm.ControlFile;
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
 * rmarun -n N [-cp CLASSPATH] [-x NAME[=VALUE]]... [--jvm-opt OPT]... [--bind-to core|none] [--timeout S]
 *        [--stall-report S]
 *        [--output-filename DIR] [--grace-ms MS] [--shm-dir DIR] MainClass [args...]
 * rmarun --status [--shm-dir DIR] [JOB]
 * rmarun --clean [--shm-dir DIR]
 * </pre>
 *
 * Option parsing stops at the main class: everything after it goes to the program unchanged. The ranks'
 * class path is the user's ({@code -cp}, else the {@code CLASSPATH} environment variable) followed by the
 * launcher's own class path, so a user passes only their own jars. Exit status: the job's exit code
 * ({@link JobResult#exitCode()}; {@link Launcher#EXIT_OUTPUT_LOST} if every rank succeeded but output
 * could not be delivered), {@link Launcher#EXIT_TIMEOUT} if {@code --timeout} stopped it, 2 for a usage
 * error, 1 if the job could not be started (a main class not found, a base directory that others may
 * write without the sticky bit). If rmarun itself is killed with SIGKILL,
 * its ranks end by themselves and remove the job directory ({@link RankMain}).
 */
@Command(name = "rmarun", mixinStandardHelpOptions = true, versionProvider = RmaRun.Version.class, sortOptions = false, usageHelpAutoWidth = true, description = "Runs MainClass as a job of N JVMs (ranks) that share memory through rma4j. Each output line "
    + "is prefixed with its rank; the exit status is the first non-zero exit status of a rank.", footerHeading = "%nExit status:%n", footer = {
        "  0    every rank exited with 0 (--status: a job was found)",
        "  N    the first non-zero exit status of a rank (128+S: killed by signal S)",
        "  1    the job could not be started (main class not found, unsafe --shm-dir),",
        "       or --status found no running job",
        "  2    usage error (unknown option, -n out of range, no main class)",
        "  74   every rank exited with 0, but part of their output was lost",
        "  124  --timeout expired: the waits were reported and the job stopped",
        "  130  rmarun was interrupted (Ctrl-C): the waits were reported and the job", "       stopped",})
public final class RmaRun implements Callable<Integer> {
    /** Exit status when the job could not be started. */
    public static final int EXIT_CANNOT_START = 1;
    /** Exit status of a usage error. */
    public static final int EXIT_USAGE = CommandLine.ExitCode.USAGE;

    /** Exit status of {@code --status} when no running job matches. */
    public static final int EXIT_NO_JOB = 1;

    @Spec
    private CommandSpec spec;

    @Option(names = {"-n",
        "-np"}, paramLabel = "N", defaultValue = "-1", showDefaultValue = CommandLine.Help.Visibility.NEVER, description = "Number of ranks (1..4096).")
    private int ranks;

    @Option(names = "-x", paramLabel = "NAME[=VALUE]", description = "Set environment variable NAME of every rank to VALUE, or to rmarun's own value of NAME "
        + "(repeatable). Ranks inherit rmarun's environment anyway.")
    private List<String> exports = new ArrayList<>();

    @Option(names = "--bind-to", paramLabel = "core|none", description = "core: pin rank i to the i-th CPU rmarun may run on (modulo their number), with taskset "
        + "(util-linux); none: no pinning. Default, as mpirun: core for a job of at most 2 ranks and no more ranks than "
        + "those CPUs, none otherwise.")
    private String bindTo;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "0", description = "Stop the job if it runs longer, after reporting what each rank waits for (exit status "
        + Launcher.EXIT_TIMEOUT + "). 0: no limit (default).")
    private long timeoutSeconds;

    @Option(names = "--stall-report", paramLabel = "SECONDS", defaultValue = "30", description = "Report what each rank waits for once every rank has been blocked in an rma4j call "
        + "this long (a likely deadlock; the job goes on). 0: never. Default 30.")
    private long stallReportSeconds;

    @Option(names = "--output-filename", paramLabel = "DIR", description = "Write rank i's standard output and error to DIR/rank.i instead of the terminal "
        + "(DIR is created if missing).")
    private Path outputDirectory;

    @Option(names = "--status", description = "Print what each rank of the running jobs waits for (only the job "
        + "JOB, a job directory or the pid of its rmarun, if given), and exit.")
    private boolean status;

    @Option(names = "--clean", description = "Remove the job directories whose launcher is gone, and exit. "
        + "A live job's files are never touched (every launch also does this first).")
    private boolean clean;

    @Option(names = {"-cp", "-classpath",
        "--class-path"}, paramLabel = "CLASSPATH", description = "Class path of the program (default: $CLASSPATH). The runtime's own jars are appended.")
    private String classpath;

    @Option(names = "--jvm-opt", paramLabel = "OPT", description = "A JVM option for every rank (repeatable; use --jvm-opt=-Xmx1g for options with a dash).")
    private List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--aot-cache", paramLabel = "FILE", description = "Ahead-of-time cache of the ranks' JVMs (JDK 25+): if FILE is missing, rank 0 records it "
        + "during this run (a few seconds more at its exit); if present, every rank starts from it, so a "
        + "short job reaches its steady speed sooner. A cache of another class path or JDK is not used.")
    private Path aotCache;

    @Option(names = "--grace-ms", paramLabel = "MS", defaultValue = "1000", description = "How long the other ranks may run after one failed before they are stopped "
        + "(default: ${DEFAULT-VALUE}).")
    private long graceMs;

    @Option(names = "--shm-dir", paramLabel = "DIR", description = "Directory in which the job directory is created (default: /dev/shm, or -Drma4j.shm.dir).")
    private Path shmDir;

    @Parameters(index = "0", arity = "0..1", paramLabel = "MainClass", description = "Main class every rank runs (with --status: the job).")
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
        return new CommandLine(command).setStopAtPositional(true).setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true)).setParameterExceptionHandler((exception, arguments) -> {
                final PrintWriter writer = exception.getCommandLine().getErr();
                writer.println(Launcher.MESSAGE_PREFIX + exception.getMessage() + " (rmarun --help lists the options)");
                return EXIT_USAGE;
            }).setExecutionExceptionHandler((exception, commandLine, parseResult) -> {
                commandLine.getErr().println(Launcher.MESSAGE_PREFIX + "cannot run the job: " + exception.getMessage());
                return EXIT_CANNOT_START;
            }).execute(args);
    }

    /**
     * Validates the options and runs the job.
     *
     * @return the job's exit code.
     */
    @Override
    public Integer call() throws InterruptedException {
        if (clean) {
            return clean();
        }
        if (status) {
            return printStatus(shmDir != null ? shmDir : JobDirectory.defaultBase(), mainClass);
        }
        checkOptions();
        final Map<String, String> environment = exports(exports, System.getenv());
        final String rankClasspath = rankClasspath(classpath, System.getenv("CLASSPATH"),
            System.getProperty("java.class.path"));
        final String missing = missingClass(mainClass, Launcher.withRuntime(rankClasspath));
        if (missing != null) {
            err.println(Launcher.MESSAGE_PREFIX + missing);
            return EXIT_CANNOT_START;
        }
        if (outputDirectory != null) {
            try {
                Files.createDirectories(outputDirectory);
            } catch (final IOException e) {
                err.println(Launcher.MESSAGE_PREFIX + "cannot create the --output-filename directory " + outputDirectory
                    + ": " + e);
                return EXIT_CANNOT_START;
            }
        }
        final Launcher.Builder builder = Launcher.builder();
        environment.forEach(builder::environment);
        if (aotCache != null) {
            try {
                builder.aotCache(aotCache);
            } catch (final IllegalStateException e) {
                err.println(Launcher.MESSAGE_PREFIX + "--aot-cache " + aotCache + ": " + e.getMessage());
                return EXIT_USAGE;
            }
        }
        if (outputDirectory != null) {
            builder.outputDirectory(outputDirectory);
        }
        if (bindTo != null) {
            builder.bindToCore(bindTo.equals("core"));
        }
        final Launcher launcher;
        try {
            launcher = builder.ranks(ranks).mainClass(mainClass).args(args).classpath(rankClasspath)
                .timeout(Duration.ofSeconds(timeoutSeconds)).stallReport(Duration.ofSeconds(stallReportSeconds))
                .jvmOptions(jvmOptions).grace(Duration.ofMillis(graceMs))
                .baseDirectory(shmDir != null ? shmDir : JobDirectory.defaultBase()).output(out).errorOutput(err)
                .build();
        } catch (final IllegalStateException e) {
            err.println(Launcher.MESSAGE_PREFIX + e.getMessage());
            return EXIT_USAGE;
        }
        return launcher.run().exitCode();
    }

    /**
     * rmarun --clean: removes the stale job directories under the base directory and lists them.
     *
     * @return 0.
     */
    private int clean() {
        final Path base = shmDir != null ? shmDir : JobDirectory.defaultBase();
        final List<Path> removed = JobDirectory.sweepStale(base);
        err.println(Launcher.MESSAGE_PREFIX + "removed " + removed.size() + " stale job director"
            + (removed.size() == 1 ? "y" : "ies") + " under " + base);
        removed.forEach(dir -> err.println(Launcher.MESSAGE_PREFIX + "  " + dir));
        return 0;
    }

    /**
     * @throws ParameterException for a missing or out-of-range rank count, a missing main class, or a bad
     *                            --grace-ms, --timeout, --stall-report or --bind-to.
     */
    private void checkOptions() {
        if (ranks == -1) {
            throw new ParameterException(spec.commandLine(), "the number of ranks is missing: give -n N");
        }
        if (ranks < 1 || ranks > ControlLayout.MAX_RANKS) {
            throw new ParameterException(spec.commandLine(),
                "-n must be between 1 and " + ControlLayout.MAX_RANKS + ", got " + ranks);
        }
        if (mainClass == null) {
            throw new ParameterException(spec.commandLine(),
                "the main class is missing: rmarun -n N [options] MainClass [args...]");
        }
        if (graceMs < 0) {
            throw new ParameterException(spec.commandLine(), "--grace-ms must not be negative, got " + graceMs);
        }
        if (timeoutSeconds < 0) {
            throw new ParameterException(spec.commandLine(), "--timeout must not be negative, got " + timeoutSeconds);
        }
        if (stallReportSeconds < 0) {
            throw new ParameterException(spec.commandLine(),
                "--stall-report must not be negative, got " + stallReportSeconds);
        }
        if (bindTo != null && !bindTo.equals("core") && !bindTo.equals("none")) {
            throw new ParameterException(spec.commandLine(), "--bind-to must be core or none, got '" + bindTo + "'");
        }
    }

    /**
     * @param exports the values of {@code -x}: {@code NAME=VALUE}, or {@code NAME} for rmarun's own value.
     * @param own     rmarun's environment.
     * @return the variables to set in every rank.
     * @throws ParameterException for an empty name, or a NAME that rmarun's environment does not have.
     */
    private Map<String, String> exports(final List<String> exports, final Map<String, String> own) {
        final Map<String, String> environment = new LinkedHashMap<>();
        for (final String export : exports) {
            final int equals = export.indexOf('=');
            final String name = equals < 0 ? export : export.substring(0, equals);
            if (name.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "-x " + export + ": the variable name is empty");
            }
            final String value = equals < 0 ? own.get(name) : export.substring(equals + 1);
            if (value == null) {
                throw new ParameterException(spec.commandLine(),
                    "-x " + name + ": " + name + " is not set in rmarun's environment (use -x " + name + "=VALUE)");
            }
            environment.put(name, value);
        }
        return environment;
    }

    /**
     * Looks for the class file of {@code mainClass} in {@code classpath} without loading it.
     *
     * @return null if it is there (or the class path cannot be checked: a wildcard entry), else the error.
     */
    static String missingClass(final String mainClass, final String classpath) {
        final List<URL> urls = new ArrayList<>();
        for (final String entry : classpath.split(File.pathSeparator)) {
            if (entry.endsWith("*")) {
                return null;
            }
            try {
                urls.add(Path.of(entry.isEmpty() ? "." : entry).toUri().toURL());
            } catch (final MalformedURLException | RuntimeException e) {
                return null;
            }
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), null)) {
            if (loader.findResource(mainClass.replace('.', '/') + ".class") != null) {
                return null;
            }
        } catch (final IOException e) {
            return null;
        }
        return "main class " + mainClass + " not found in the class path " + classpath;
    }

    /**
     * Prints what each rank of the running jobs under {@code base} waits for ({@link WaitReport}).
     *
     * @param job a job directory, the pid of its launcher, or null for every job.
     * @return 0 if a job was found, else {@link #EXIT_NO_JOB}.
     */
    private int printStatus(final Path base, final String job) {
        final List<Path> jobs = new ArrayList<>();
        if (job != null && Files.isDirectory(Path.of(job))) {
            jobs.add(Path.of(job));
        } else {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(base, JobDirectory.NAME_PREFIX + "*")) {
                for (final Path entry : entries) {
                    final String name = entry.getFileName().toString();
                    if (job == null || name.startsWith(JobDirectory.NAME_PREFIX + job + "-")) {
                        jobs.add(entry);
                    }
                }
            } catch (final IOException e) {
                err.println(Launcher.MESSAGE_PREFIX + "cannot list " + base + ": " + e);
                return EXIT_NO_JOB;
            }
        }
        int found = 0;
        for (final Path dir : jobs) {
            final long launcherPid = launcherPid(dir);
            if (launcherPid <= 0) {
                continue;
            }
            try (ControlFile control = WaitReport.openControl(dir, launcherPid)) {
                if (control.launcherGone()) {
                    continue;
                }
                found++;
                out.println("job " + dir + " (rmarun pid " + control.launcherPid() + ", " + control.ranks() + " rank"
                    + (control.ranks() == 1 ? "" : "s") + "):");
                WaitReport.lines(control, System.currentTimeMillis()).forEach(line -> out.println("  " + line));
            } catch (final RuntimeException e) {
                if (job != null) {
                    err.println(Launcher.MESSAGE_PREFIX + "cannot read the job " + dir + ": " + e.getMessage());
                }
                // else: not a job directory of this user, or one being created or removed meanwhile
            }
        }
        if (found == 0) {
            err.println(Launcher.MESSAGE_PREFIX + "no running job" + (job != null ? " " + job : "") + " under " + base);
            return EXIT_NO_JOB;
        }
        return 0;
    }

    /**
     * @return the launcher pid in a job directory's name ({@code rma4j-<pid>-<nonce>}), or -1.
     */
    private static long launcherPid(final Path directory) {
        final String name = directory.toAbsolutePath().normalize().getFileName().toString();
        if (!name.startsWith(JobDirectory.NAME_PREFIX)) {
            return -1;
        }
        final String rest = name.substring(JobDirectory.NAME_PREFIX.length());
        final int dash = rest.indexOf('-');
        try {
            return dash > 0 ? Long.parseLong(rest.substring(0, dash)) : -1;
        } catch (final NumberFormatException e) {
            return -1;
        }
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
            return new String[] {"rmarun (rma4j) " + (version != null ? version : "development build"),
                "JVM: " + Runtime.version() + " " + System.getProperty("java.vm.name") + " at "
                    + System.getProperty("java.home"),};
        }
    }
}
