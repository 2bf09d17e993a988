package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;
import org.rma4j.test.ShmTestDirectory;

/**
 * Runs scenario programs (static methods taking an {@link RmaJob}, grouped in holder classes such as
 * {@link WindowScenarios}) at every rank of a job: in thread mode, or as real processes through the
 * launcher with {@link ScenarioMain}.
 */
final class Scenarios {
    /** System property of the MPI-mode tests' ranks: the job runs across nodes ({@code mpimode.MpiJobs}). */
    static final String ACROSS_NODES_PROP_NAME = "rma4j.test.acrossNodes";

    private Scenarios() {
    }

    /**
     * @return whether this rank runs in an MPI-mode test job across two nodes (ranks 0, 1 on one, 2, 3 on the
     *         other): scenarios then use {@code allocate} where they used {@code allocateShared} only to get
     *         memory, and check the node-local answers of {@code splitShared}.
     */
    static boolean acrossNodes() {
        return Boolean.getBoolean(ACROSS_NODES_PROP_NAME);
    }

    /**
     * {@code allocateShared} on one node, {@code allocate} across nodes (where a shared window is the standard's
     * error): for scenarios that want memory and RMA, not load / store through {@code sharedQuery}.
     */
    static Window allocate(final Communicator comm, final long sizeBytes, final int dispUnit, final Info info) {
        return acrossNodes()
            ? comm.allocate(sizeBytes, dispUnit, info)
            : comm.allocateShared(sizeBytes, dispUnit, info);
    }

    /** {@link #allocate(Communicator, long, int, Info)} on the world, without hints. */
    static Window allocate(final RmaJob job, final long sizeBytes, final int dispUnit) {
        return allocate(job.world(), sizeBytes, dispUnit, null);
    }

    /** {@link #allocate(Communicator, long, int, Info)} on the world. */
    static Window allocate(final RmaJob job, final long sizeBytes, final int dispUnit, final Info info) {
        return allocate(job.world(), sizeBytes, dispUnit, info);
    }

    /**
     * Calls {@code holder.name(job)}, rethrowing what it throws.
     */
    static void invoke(final Class<?> holder, final String name, final RmaJob job) throws Throwable {
        final Method method = holder.getDeclaredMethod(name, RmaJob.class);
        method.setAccessible(true);
        try {
            method.invoke(null, job);
        } catch (final InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * Runs the scenario at {@code ranks} threads of this JVM.
     */
    static void runThreads(final ShmTestDirectory base, final int ranks, final Class<?> holder, final String name) {
        runThreads(base.path(), ranks, holder, name, 0);
    }

    /**
     * Runs the scenario at {@code ranks} threads of this JVM, in a job directory under {@code base}.
     */
    static void runThreads(final Path base, final int ranks, final Class<?> holder, final String name) {
        runThreads(base, ranks, holder, name, 0);
    }

    /**
     * Runs the scenario at {@code ranks} threads of this JVM, every blocking call limited to
     * {@code waitTimeoutMs} (0: the default strategy's limit).
     */
    static void runThreads(final ShmTestDirectory base, final int ranks, final Class<?> holder, final String name,
        final long waitTimeoutMs) {
        runThreads(base.path(), ranks, holder, name, waitTimeoutMs);
    }

    private static void runThreads(final Path base, final int ranks, final Class<?> holder, final String name,
        final long waitTimeoutMs) {
        final WaitOptions strategy = waitTimeoutMs > 0
            ? WaitOptions.defaults().withTimeout(java.time.Duration.ofMillis(waitTimeoutMs))
            : WaitOptions.defaults();
        Rma.callThreads(ranks, base, strategy, job -> {
            try {
                invoke(holder, name, job);
            } catch (final Exception | Error e) {
                throw e;
            } catch (final Throwable t) {
                throw new IllegalStateException(t);
            }
            return null;
        });
    }

    /**
     * Runs the scenario at {@code ranks} JVM processes and asserts that every rank passed it.
     */
    static void runProcesses(final ShmTestDirectory base, final int ranks, final Class<?> holder, final String name,
        final String... jvmOptions) throws Exception {
        runProcesses(base.path(), ranks, holder, name, jvmOptions);
    }

    /**
     * Runs the scenario at {@code ranks} JVM processes, in a job directory under {@code base}, and asserts
     * that every rank passed it.
     */
    static void runProcesses(final Path base, final int ranks, final Class<?> holder, final String name,
        final String... jvmOptions) throws Exception {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final Launcher.Builder builder = Launcher.builder().ranks(ranks).mainClass(ScenarioMain.class.getName())
            .args(holder.getName(), name).jvmOption("-XX:TieredStopAtLevel=1").baseDirectory(base).output(lines::add)
            .errorOutput(lines::add);
        for (final String option : jvmOptions) {
            builder.jvmOption(option);
        }
        final JobResult result = builder.build().run();
        assertEquals(0, result.exitCode(), () -> "job failed:\n" + String.join("\n", lines));
        assertEquals(ranks, lines.stream().filter(line -> line.contains("scenario " + name + " passed")).count(),
            () -> String.join("\n", lines));
    }
}
