package org.rma4j.bench.harness;

import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;

/**
 * Runs each Java scenario ({@link RankMain.Scenario}) as a job of two rank JVMs through the
 * {@link Launcher} and turns rank 0's samples into {@link Measurement}s.
 */
final class JavaRunner {
    /** JVM options of the rank JVMs by default: rma4j's waits spin (a latency run, one core per rank). */
    static final List<String> DEFAULT_JVM_OPTIONS = List.of("-Drma4j.wait=busy-spin");

    /** Default longest time one scenario's job may take before its ranks are killed. */
    static final Duration TIMEOUT_DEFAULT = Duration.ofSeconds(600);

    private final Path workDirectory;
    private final List<String> jvmOptions;
    private final Consumer<String> log;
    private final Duration timeout;
    private final Path shmBase;

    JavaRunner(final Path workDirectory, final List<String> jvmOptions, final Consumer<String> log) {
        this(workDirectory, jvmOptions, log, TIMEOUT_DEFAULT);
    }

    JavaRunner(final Path workDirectory, final List<String> jvmOptions, final Consumer<String> log,
        final Duration timeout) {
        this(workDirectory, jvmOptions, log, timeout, null);
    }

    /**
     * @param timeout longest time one scenario may take; then the launcher is interrupted, which kills
     *                the ranks, and the scenario fails.
     * @param shmBase where the jobs' directories are made; null for the launcher's default (/dev/shm).
     */
    JavaRunner(final Path workDirectory, final List<String> jvmOptions, final Consumer<String> log,
        final Duration timeout, final Path shmBase) {
        this.workDirectory = workDirectory;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.log = log;
        this.timeout = timeout;
        this.shmBase = shmBase;
    }

    /**
     * @return whether a job of {@code ranks} binds rank i to the i-th CPU (modulo their number): when there
     *         are no more ranks than CPUs, as mpirun binds to cores by default; a job of more ranks than CPUs
     *         runs unbound, as mpirun runs an oversubscribed job.
     */
    static boolean bindToCore(final int ranks) {
        return ranks <= Runtime.getRuntime().availableProcessors();
    }

    /**
     * Runs one scenario.
     *
     * @return its measurements, with the implementation of each row ({@link Rows#javaImpl}).
     * @throws IllegalStateException naming the scenario and the failed rank if the job fails.
     */
    List<Measurement> run(final RankMain.Scenario scenario, final long[] sizes, final int iterations, final int warmup,
        final int bwSamples) throws InterruptedException {
        final Path out = workDirectory.resolve("java-" + scenario.id + ".samples");
        try {
            Files.deleteIfExists(out);
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        final List<String> lines = new CopyOnWriteArrayList<>();
        final Launcher.Builder builder = Launcher.builder().ranks(2)
            // rmarun --bind-to core: rank i pinned to CPU i (taskset), as mpirun binds its ranks to cores.
            .bindToCore(true).mainClass(RankMain.class.getName())
            .args(scenario.id, out.toString(),
                Arrays.stream(sizes).mapToObj(Long::toString).collect(Collectors.joining(",")),
                Integer.toString(iterations), Integer.toString(warmup), Integer.toString(bwSamples))
            .jvmOptions(jvmOptions).output(line -> {
                lines.add(line);
                log.accept(line);
            });
        if (shmBase != null) {
            builder.baseDirectory(shmBase);
        }
        final Launcher launcher = builder.build();
        final JobResult result = runWithin(launcher, "java scenario " + scenario.id, lines, timeout);
        if (!result.succeeded()) {
            throw new IllegalStateException("java scenario " + scenario.id + " failed: "
                + result.failureMessage().orElse("exit " + result.exitCode()) + "\n" + tail(lines));
        }
        if (!Files.exists(out)) {
            throw new IllegalStateException("java scenario " + scenario.id + " wrote no samples to " + out);
        }
        return SampleFile.read(out).stream().map(line -> Measurement.of(Rows.javaImpl(line.row()), line)).toList();
    }

    /**
     * Runs the launcher on its own thread and interrupts it (the launcher then kills the ranks) if the
     * job outlives {@code timeout}.
     *
     * @param label names the job in exception messages, e.g. {@code java scenario floor}.
     * @param lines the job's output so far, whose tail goes into the messages.
     * @throws IllegalStateException if the job outlives {@code timeout} or cannot start.
     */
    static JobResult runWithin(final Launcher launcher, final String label, final List<String> lines,
        final Duration timeout) throws InterruptedException {
        final CompletableFuture<JobResult> result = new CompletableFuture<>();
        final Thread runner = Thread.ofPlatform().name("rma4j-bench-job").start(() -> {
            try {
                result.complete(launcher.run());
            } catch (final Throwable t) {
                result.completeExceptionally(t);
            }
        });
        try {
            return result.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (final TimeoutException e) {
            runner.interrupt();
            runner.join(TimeUnit.SECONDS.toMillis(30));
            throw new IllegalStateException(
                label + " did not finish within " + timeout.toSeconds() + " s; its ranks were killed\n" + tail(lines));
        } catch (final ExecutionException e) {
            throw new IllegalStateException(label + " could not run: " + e.getCause(), e.getCause());
        } catch (final InterruptedException e) {
            runner.interrupt();
            throw e;
        }
    }

    /**
     * @return the last 15 of {@code lines}, one per line.
     */
    static String tail(final List<String> lines) {
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    }
}
