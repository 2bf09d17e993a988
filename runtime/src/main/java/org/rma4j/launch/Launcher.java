package org.rma4j.launch;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

import org.rma4j.shm.ControlLayout;
import org.rma4j.shm.JobDirectory;

/**
 * Starts a job of N JVMs on this machine, one per rank, and waits for them: the engine behind
 * {@code bin/rmarun} ({@link RmaRun}), usable directly from Java (tests, harnesses).
 *
 * <p>{@link #run()} creates a fresh job directory under the base directory with the job's control file
 * (launcher pid = this process) before any rank starts, then starts every rank as
 * {@code java [jvmOptions] --enable-native-access=ALL-UNNAMED -cp classpath org.rma4j.launch.RankMain
 * mainClass args} with the environment variables of {@link JobEnvironment} set, and forwards each line a
 * rank writes, prefixed {@code [rank] }, to the output sinks. {@link RankMain} makes the rank watch this
 * process: if it is killed with SIGKILL, the ranks remove the job directory and end by themselves.
 *
 * <p>When a rank exits with a non-zero status (a status above 128 is reported as death by signal
 * {@code status - 128}, as shells do), the launcher at once marks it {@code FAILED} in the control file,
 * so that peers waiting on it throw {@link org.rma4j.RankFailedException}, writes a message naming the rank and
 * its status to the error sink, waits up to the grace period for the other ranks to end by themselves
 * and then terminates the rest (SIGTERM, then SIGKILL {@link #KILL_DELAY} later). The job directory
 * is removed on every exit path: normal end, a failed rank, an exception in the launcher, and a
 * shutdown of the launcher's JVM (Ctrl-C, SIGTERM), during which the ranks are terminated too.
 *
 * <p>A launcher is immutable and may run several jobs, one after another or concurrently.
 */
public final class Launcher {
    /** Default time the other ranks get to end by themselves after one failed. */
    public static final Duration GRACE_DEFAULT = Duration.ofSeconds(1);
    /** Time between SIGTERM and SIGKILL when the launcher terminates ranks. */
    public static final Duration KILL_DELAY = Duration.ofSeconds(1);
    /** Default of {@link Builder#stallReport}: 30 s. */
    public static final Duration STALL_REPORT_DEFAULT = Duration.ofSeconds(30);
    /** JVM option every rank gets: the runtime maps shared files and calls futex through the FFM API. */
    public static final String NATIVE_ACCESS_OPTION = "--enable-native-access=ALL-UNNAMED";
    /**
     * Exit code of a job whose ranks all exited with 0 but part of whose output could not be delivered
     * (the sink failed: a closed pipe, a full disk). 74 is {@code EX_IOERR} of {@code sysexits.h}.
     */
    public static final int EXIT_OUTPUT_LOST = 74;
    /**
     * Exit code of a job stopped because it did not end within its {@linkplain Builder#timeout timeout}:
     * 124, as GNU {@code timeout} exits.
     */
    public static final int EXIT_TIMEOUT = 124;
    /** JVM option that starts a rank from an ahead-of-time cache (JEP 483). */
    static final String AOT_CACHE_OPTION = "-XX:AOTCache=";
    /** JVM option that records an ahead-of-time cache during the run and writes it at exit (JEP 514). */
    static final String AOT_CACHE_OUTPUT_OPTION = "-XX:AOTCacheOutput=";
    /** The first JDK feature release whose JVM takes {@link #AOT_CACHE_OUTPUT_OPTION}. */
    static final int AOT_CACHE_MIN_FEATURE = 25;

    /** Program that pins a rank to a CPU ({@link Builder#bindToCore}), from util-linux. */
    static final String TASKSET = "taskset";
    /**
     * The most ranks a job binds to cores by default ({@link #bindsByDefault}): mpirun's rule (Open MPI's mpirun(1),
     * "binding": to cores when there are at most 2 processes, to packages beyond, to nothing when oversubscribed).
     */
    static final int BIND_BY_DEFAULT_MAX_RANKS = 2;
    /** Prefix of the launcher's own messages. */
    static final String MESSAGE_PREFIX = "rmarun: ";

    private final int ranks;
    private final String mainClass;
    private final List<String> args;
    private final String classpath;
    private final String javaExecutable;
    private final List<String> jvmOptions;
    private final Path baseDirectory;
    private final Map<String, String> environment;
    private final LineSink outputSink;
    private final LineSink errorSink;
    private final Duration grace;
    private final Duration timeout;
    private final Duration stallReport;
    private final Path outputDirectory;
    private final int[] cpus;
    private final Path aotCache;

    private Launcher(final Builder builder) {
        this.ranks = builder.ranks;
        this.mainClass = Objects.requireNonNull(builder.mainClass, "mainClass is required");
        this.args = List.copyOf(builder.args);
        this.classpath = builder.classpath != null ? builder.classpath : System.getProperty("java.class.path", "");
        this.javaExecutable = builder.javaExecutable != null ? builder.javaExecutable : currentJava();
        this.jvmOptions = List.copyOf(builder.jvmOptions);
        this.baseDirectory = builder.baseDirectory != null ? builder.baseDirectory : JobDirectory.defaultBase();
        this.environment = Map.copyOf(builder.environment);
        this.outputSink = builder.outputSink != null ? builder.outputSink : LineSink.of(System.out);
        this.errorSink = builder.errorSink != null
            ? builder.errorSink
            : builder.outputSink != null ? builder.outputSink : LineSink.of(System.err);
        this.grace = builder.grace;
        this.timeout = builder.timeout;
        this.stallReport = builder.stallReport;
        this.outputDirectory = builder.outputDirectory;
        this.cpus = cpusToBind(builder.bindToCore, ranks);
        this.aotCache = builder.aotCache;
        final String directory = aotCache == null ? null : nonEmptyDirectoryIn(withRuntime(classpath));
        if (directory != null) {
            throw new IllegalStateException("--aot-cache needs a class path of jar files (the JVM's ahead-of-time"
                + " cache takes no classes from directories); " + directory + " is a directory");
        }
    }

    /**
     * @return a builder with the defaults described on its setters.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs the job and blocks until every rank has ended and the job directory is removed.
     *
     * @return the job's exit code, each rank's exit status and the failure, if any.
     * @throws java.io.UncheckedIOException if the job directory cannot be created or a rank cannot be
     *                                      started (ranks already started are terminated first).
     * @throws InterruptedException         if the calling thread is interrupted; the ranks are killed.
     */
    public JobResult run() throws InterruptedException {
        return new JobRun(this).run();
    }

    /**
     * @return the command line that starts every rank: java, JVM options, class path (with the runtime's
     *         own location added if missing), {@link RankMain}, the main class and its arguments.
     */
    public List<String> command() {
        final List<String> command = new ArrayList<>();
        command.add(javaExecutable);
        command.addAll(jvmOptions);
        if (jvmOptions.stream().noneMatch(option -> option.startsWith("--enable-native-access"))) {
            command.add(NATIVE_ACCESS_OPTION);
        }
        command.add("-cp");
        command.add(withRuntime(classpath));
        command.add(RankMain.class.getName());
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /**
     * @return {@code classpath} followed by the locations of the classes {@link RankMain} needs (this
     *         module's and shm-transport's), those it does not hold already.
     */
    static String withRuntime(final String classpath) {
        final List<String> entries = new ArrayList<>();
        if (!classpath.isEmpty()) {
            entries.addAll(List.of(classpath.split(File.pathSeparator)));
        }
        for (final Class<?> needed : List.of(RankMain.class, JobDirectory.class)) {
            final String location = location(needed);
            if (location != null && !entries.contains(location)) {
                entries.add(location);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /**
     * @return the first entry of {@code classpath} that is a directory with something in it, or null: the
     *         JVM refuses to write an ahead-of-time cache for such a class path.
     */
    static String nonEmptyDirectoryIn(final String classpath) {
        for (final String entry : classpath.split(File.pathSeparator)) {
            final Path path = Path.of(entry.isEmpty() ? "." : entry);
            if (Files.isDirectory(path)) {
                try (var children = Files.list(path)) {
                    if (children.findAny().isPresent()) {
                        return entry;
                    }
                } catch (final IOException e) {
                    return entry;
                }
            }
        }
        return null;
    }

    private static String location(final Class<?> type) {
        try {
            final CodeSource source = type.getProtectionDomain().getCodeSource();
            return source == null ? null : Path.of(source.getLocation().toURI()).toString();
        } catch (final URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /**
     * @return the command of {@code rank}: {@code command}, preceded by {@code taskset -c CPU} when ranks are
     *         bound to cores (rank i gets the i-th CPU this process may run on, modulo their number).
     */
    List<String> commandOf(final int rank, final List<String> command) {
        final String aotOption = aotOptionOf(rank);
        if (cpus == null && aotOption == null) {
            return command;
        }
        final List<String> ofRank = new ArrayList<>();
        if (cpus != null) {
            ofRank.addAll(List.of(TASKSET, "-c", Integer.toString(cpus[rank % cpus.length])));
        }
        ofRank.add(command.getFirst());
        if (aotOption != null) {
            ofRank.add(aotOption);
        }
        ofRank.addAll(command.subList(1, command.size()));
        return ofRank;
    }

    /**
     * @return the ahead-of-time cache option of {@code rank} ({@link Builder#aotCache}): every rank starts
     *         from the cache once it exists; until then rank 0 alone records it, the others start without.
     */
    private String aotOptionOf(final int rank) {
        if (aotCache == null) {
            return null;
        }
        if (Files.isRegularFile(aotCache)) {
            return AOT_CACHE_OPTION + aotCache;
        }
        return rank == 0 ? AOT_CACHE_OUTPUT_OPTION + aotCache : null;
    }

    /**
     * @param bindToCore the builder's choice, null for the default.
     * @return the CPUs the ranks of a job of {@code ranks} are pinned to (rank i to the i-th, modulo their number),
     *         or null if they run unpinned: as chosen, else as {@link #bindsByDefault} says.
     */
    private static int[] cpusToBind(final Boolean bindToCore, final int ranks) {
        if (bindToCore != null) {
            return bindToCore ? allowedCpus() : null;
        }
        if (!onPath(TASKSET)) {
            return null;
        }
        final int[] allowed = cpusAllowedList();
        return bindsByDefault(ranks, allowed.length) ? allowed : null;
    }

    /**
     * mpirun's default binding for one package: a job of at most {@value #BIND_BY_DEFAULT_MAX_RANKS} ranks, no more
     * than the CPUs the launcher may run on, runs each rank pinned to its CPU; a larger job runs unbound (mpirun binds
     * it to packages, which on one package is no binding; rmarun does not map packages). Pinned, two ranks that wait
     * for each other keep a CPU each: unpinned, on a machine whose CPUs are all busy, Linux's wake-affine placement (a
     * task woken from a futex sleep may go to its waker's CPU) put both ranks of a ping-pong on one CPU, where each
     * message waited for a time slice (bench/README, "Loaded machine").
     *
     * @param allowedCpus CPUs the launcher may run on.
     */
    static boolean bindsByDefault(final int ranks, final int allowedCpus) {
        return ranks <= BIND_BY_DEFAULT_MAX_RANKS && ranks <= allowedCpus;
    }

    /**
     * @return the CPUs this process may run on, from {@code Cpus_allowed_list} of {@code /proc/self/status}.
     * @throws IllegalStateException if they cannot be read or {@code taskset} is not installed.
     */
    static int[] allowedCpus() {
        if (!onPath(TASKSET)) {
            throw new IllegalStateException(
                "--bind-to core needs " + TASKSET + " (package util-linux), which is not on" + " the PATH");
        }
        return cpusAllowedList();
    }

    /**
     * @return the CPUs this process may run on, from {@code Cpus_allowed_list} of {@code /proc/self/status}.
     * @throws IllegalStateException if they cannot be read.
     */
    private static int[] cpusAllowedList() {
        try {
            for (final String line : java.nio.file.Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parseCpuList(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (final java.io.IOException e) {
            throw new IllegalStateException("cannot read the CPUs rmarun may run on: " + e.getMessage(), e);
        }
        throw new IllegalStateException("no Cpus_allowed_list in /proc/self/status");
    }

    /**
     * @param list a CPU list as the kernel writes it, e.g. {@code "0-3,8,10-11"}.
     * @return the CPUs in it, in order.
     */
    static int[] parseCpuList(final String list) {
        final List<Integer> cpus = new ArrayList<>();
        for (final String part : list.split(",")) {
            final int dash = part.indexOf('-');
            final int first = Integer.parseInt(dash < 0 ? part.trim() : part.substring(0, dash).trim());
            final int last = dash < 0 ? first : Integer.parseInt(part.substring(dash + 1).trim());
            for (int cpu = first; cpu <= last; cpu++) {
                cpus.add(cpu);
            }
        }
        return cpus.stream().mapToInt(Integer::intValue).toArray();
    }

    private static boolean onPath(final String program) {
        final String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (final String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && java.nio.file.Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    int ranks() {
        return ranks;
    }

    Path baseDirectory() {
        return baseDirectory;
    }

    Map<String, String> environment() {
        return environment;
    }

    LineSink outputSink() {
        return outputSink;
    }

    LineSink errorSink() {
        return errorSink;
    }

    Duration grace() {
        return grace;
    }

    Duration timeout() {
        return timeout;
    }

    Duration stallReport() {
        return stallReport;
    }

    Path outputDirectory() {
        return outputDirectory;
    }

    /**
     * @return the java launcher of the running JVM: its own command, or {@code java.home}/bin/java.
     */
    static String currentJava() {
        return ProcessHandle.current().info().command()
            .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * Collects a job's settings. Not thread-safe.
     */
    public static final class Builder {
        private int ranks = 1;
        private String mainClass;
        private final List<String> args = new ArrayList<>();
        private String classpath;
        private String javaExecutable;
        private final List<String> jvmOptions = new ArrayList<>();
        private Path baseDirectory;
        private final Map<String, String> environment = new LinkedHashMap<>();
        private LineSink outputSink;
        private LineSink errorSink;
        private Duration grace = GRACE_DEFAULT;
        private Duration timeout = Duration.ZERO;
        private Duration stallReport = STALL_REPORT_DEFAULT;
        private Path outputDirectory;
        private Boolean bindToCore;
        private Path aotCache;

        private Builder() {
        }

        /**
         * @param ranks number of processes, 1..{@value ControlLayout#MAX_RANKS} (default 1).
         * @return this builder.
         */
        public Builder ranks(final int ranks) {
            ControlLayout.checkRanks(ranks);
            this.ranks = ranks;
            return this;
        }

        /**
         * @param mainClass binary name of the class whose {@code main} every rank runs (required).
         * @return this builder.
         */
        public Builder mainClass(final String mainClass) {
            if (mainClass.isBlank()) {
                throw new IllegalArgumentException("main class name is blank");
            }
            this.mainClass = mainClass;
            return this;
        }

        /**
         * @param args program arguments, the same for every rank (replaces earlier ones).
         * @return this builder.
         */
        public Builder args(final List<String> args) {
            this.args.clear();
            this.args.addAll(args);
            return this;
        }

        /**
         * @param args program arguments, the same for every rank (replaces earlier ones).
         * @return this builder.
         */
        public Builder args(final String... args) {
            return args(List.of(args));
        }

        /**
         * @param classpath class path of the ranks (default: this JVM's {@code java.class.path}); the
         *                  locations of the runtime classes every rank starts with ({@link RankMain}) are
         *                  appended where missing.
         * @return this builder.
         */
        public Builder classpath(final String classpath) {
            this.classpath = Objects.requireNonNull(classpath);
            return this;
        }

        /**
         * @param javaExecutable the {@code java} launcher to run (default: the one running this JVM).
         * @return this builder.
         */
        public Builder javaExecutable(final Path javaExecutable) {
            this.javaExecutable = javaExecutable.toString();
            return this;
        }

        /**
         * @param option a JVM option for every rank, before the class path (may be repeated).
         *               {@value #NATIVE_ACCESS_OPTION} is always added unless an option sets native
         *               access itself.
         * @return this builder.
         */
        public Builder jvmOption(final String option) {
            jvmOptions.add(Objects.requireNonNull(option));
            return this;
        }

        /**
         * @param options JVM options for every rank, added to earlier ones.
         * @return this builder.
         */
        public Builder jvmOptions(final List<String> options) {
            options.forEach(this::jvmOption);
            return this;
        }

        /**
         * @param baseDirectory where the job directory is created (default:
         *                      {@link JobDirectory#defaultBase()}); made absolute.
         * @return this builder.
         */
        public Builder baseDirectory(final Path baseDirectory) {
            this.baseDirectory = baseDirectory.toAbsolutePath();
            return this;
        }

        /**
         * @param name  an environment variable for every rank, in addition to this JVM's environment.
         *              The variables of {@link JobEnvironment} are always set by the launcher.
         * @param value its value.
         * @return this builder.
         */
        public Builder environment(final String name, final String value) {
            environment.put(Objects.requireNonNull(name), Objects.requireNonNull(value));
            return this;
        }

        /**
         * Where the ranks' output lines go, each prefixed {@code [rank] }, decoded with the platform's native
         * encoding (bytes that are not text in it arrive as replacement characters: use
         * {@link #output(PrintStream)} for binary output). Lines from standard error go here too unless an
         * error output is set. Calls are serialized by the launcher, so the sink needs no locking of its
         * own. A line longer than {@value OutputPump#MAX_LINE_BYTES} bytes arrives in pieces of at most that
         * many bytes. A sink that throws fails the job ({@link #EXIT_OUTPUT_LOST}); the rest of that
         * stream is discarded. Default: {@code System.out} (and {@code System.err} for standard error),
         * byte for byte.
         *
         * @param sink receives one line per call, without line terminator.
         * @return this builder.
         */
        public Builder output(final Consumer<String> sink) {
            this.outputSink = LineSink.of(sink, LineSink.childCharset());
            return this;
        }

        /**
         * Like {@link #output(Consumer)}, but the ranks' bytes are written to {@code stream} unchanged (no
         * decoding), each line preceded by its prefix and followed by {@code '\n'}. An error of the stream
         * ({@link PrintStream#checkError()}) fails the job ({@link #EXIT_OUTPUT_LOST}).
         *
         * @param stream receives the ranks' output lines.
         * @return this builder.
         */
        public Builder output(final PrintStream stream) {
            this.outputSink = LineSink.of(stream);
            return this;
        }

        /**
         * Where the ranks' standard-error lines and the launcher's own messages go (see
         * {@link #output(Consumer)}).
         *
         * @param sink receives one line per call, without line terminator.
         * @return this builder.
         */
        public Builder errorOutput(final Consumer<String> sink) {
            this.errorSink = LineSink.of(sink, LineSink.childCharset());
            return this;
        }

        /**
         * @param stream receives standard-error lines, byte for byte, and launcher messages (see
         *               {@link #output(PrintStream)}).
         * @return this builder.
         */
        public Builder errorOutput(final PrintStream stream) {
            this.errorSink = LineSink.of(stream);
            return this;
        }

        /**
         * @param grace how long the other ranks may run after one failed before they are terminated
         *              (default {@link #GRACE_DEFAULT}; zero: terminate at once).
         * @return this builder.
         */
        public Builder grace(final Duration grace) {
            if (grace.isNegative()) {
                throw new IllegalArgumentException("grace period " + grace + " is negative");
            }
            this.grace = grace;
            return this;
        }

        /**
         * @param timeout how long the job may run (zero, the default: no limit). When it is over, the launcher
         *                writes what each rank waits for to the error output, stops the ranks and the job
         *                ends with {@link #EXIT_TIMEOUT}.
         * @return this builder.
         */
        public Builder timeout(final Duration timeout) {
            if (timeout.isNegative()) {
                throw new IllegalArgumentException("timeout " + timeout + " is negative");
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * @param stallReport how long every rank still in the job must have been blocked in an rma4j call before
         *                    the launcher writes what each waits for to the error output, once per such stall
         *                    (default {@link #STALL_REPORT_DEFAULT}; zero: never). The job goes on: only a
         *                    peer can end a rank's wait, so such a job is most likely deadlocked (a rank whose
         *                    program threw and that now waits in a collective call while a peer waits for its
         *                    data), but a thread of a rank outside the waits may still end it.
         * @return this builder.
         */
        public Builder stallReport(final Duration stallReport) {
            if (stallReport.isNegative()) {
                throw new IllegalArgumentException("stall report delay " + stallReport + " is negative");
            }
            this.stallReport = stallReport;
            return this;
        }

        /**
         * @param directory where rank i writes its standard output and standard error, into the file
         *                  {@code rank.i} (created or truncated), instead of the output sinks; it must exist.
         * @return this builder.
         */
        public Builder outputDirectory(final Path directory) {
            this.outputDirectory = directory.toAbsolutePath();
            return this;
        }

        /**
         * @param bindToCore whether rank i runs pinned to one CPU, the i-th (modulo their number) of those
         *                   the launcher may run on, through {@code taskset -c} (util-linux). Default: mpirun's rule,
         *                   pinned for a job of at most 2 ranks and no more ranks than those CPUs, if
         *                   {@code taskset} is installed ({@link Launcher#bindsByDefault}).
         * @return this builder.
         */
        public Builder bindToCore(final boolean bindToCore) {
            this.bindToCore = bindToCore;
            return this;
        }

        /**
         * @param file the ahead-of-time cache of the ranks' JVMs (JDK 25: JEPs 483, 514, 515): if the file
         *             exists every rank starts from it (classes loaded and linked, method profiles ready, so
         *             a short job reaches its steady speed sooner); if not, rank 0 records it during this run
         *             and the JVM writes it when rank 0 exits. A cache made with another class path or JDK is
         *             not used (the JVM says so and starts without it). Default: none.
         * @return this builder.
         * @throws IllegalStateException if this JVM (whose java the ranks run) is older than JDK 25.
         */
        public Builder aotCache(final Path file) {
            if (Runtime.version().feature() < AOT_CACHE_MIN_FEATURE) {
                throw new IllegalStateException("an ahead-of-time cache needs JDK " + AOT_CACHE_MIN_FEATURE
                    + " or later; this is " + Runtime.version());
            }
            this.aotCache = file.toAbsolutePath();
            return this;
        }

        /**
         * @return a launcher with these settings.
         * @throws IllegalStateException if ranks are bound to cores but {@code taskset} is not installed, or
         *                               an ahead-of-time cache is asked for a class path with a directory.
         * @throws NullPointerException if no main class was set.
         */
        public Launcher build() {
            return new Launcher(this);
        }
    }
}
