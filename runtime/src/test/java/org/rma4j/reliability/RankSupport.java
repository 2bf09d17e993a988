package org.rma4j.reliability;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import org.rma4j.Window;

/**
 * What the rank programs of this suite share: dying by SIGKILL at an exact point, publishing the time
 * of death to the survivors, and reading the process's CPU time.
 *
 * <p>A program that kills itself first writes {@link System#nanoTime()} into its part of a "clock"
 * window (made with {@code allocateShared(CLOCK_BYTES, 8)}), so that a survivor can print how long
 * it took to notice: {@code nanoTime} is one monotonic clock for every process of the machine.
 */
final class RankSupport {
    /** Bytes of each rank's part of a clock window: kill time, progress counter. */
    static final long CLOCK_BYTES = 16;
    static final long CLOCK_KILL_TIME = 0;
    static final long CLOCK_PROGRESS = 8;

    private static final int SIGKILL = 9;
    private static final MethodHandle KILL = Linker.nativeLinker().downcallHandle(
        Linker.nativeLinker().defaultLookup().find("kill").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

    private RankSupport() {
    }

    /**
     * Records the time in this rank's part of {@code clock} and sends SIGKILL to this process: no
     * shutdown hook, no finally block, no exit status of its own runs.
     */
    static void die(final Window clock) {
        clock.segment().set(ValueLayout.JAVA_LONG, CLOCK_KILL_TIME, System.nanoTime());
        VarHandle.fullFence();
        killSelf();
    }

    /**
     * Sends SIGKILL to this process (through kill(2), not a forked kill command, so that the time of
     * death is known to within microseconds).
     */
    static void killSelf() {
        try {
            final int pid = (int)ProcessHandle.current().pid();
            final int status = (int)KILL.invokeExact(pid, SIGKILL);
            throw new IllegalStateException("kill(" + pid + ", SIGKILL) returned " + status);
        } catch (final Throwable t) {
            throw new IllegalStateException("cannot kill this process", t);
        }
    }

    /**
     * Records {@code value} as this rank's progress in {@code clock} (read by survivors after its death).
     */
    static void progress(final Window clock, final long value) {
        clock.segment().set(ValueLayout.JAVA_LONG, CLOCK_PROGRESS, value);
        VarHandle.fullFence();
    }

    /**
     * @return milliseconds from the recorded death of {@code rank} until now, or NaN if it recorded none.
     */
    static double millisSinceDeath(final Window clock, final int rank) {
        final long killed = part(clock, rank).get(ValueLayout.JAVA_LONG, CLOCK_KILL_TIME);
        return killed == 0 ? Double.NaN : (System.nanoTime() - killed) / 1e6;
    }

    static long progressOf(final Window clock, final int rank) {
        VarHandle.fullFence();
        return part(clock, rank).get(ValueLayout.JAVA_LONG, CLOCK_PROGRESS);
    }

    private static MemorySegment part(final Window clock, final int rank) {
        return clock.sharedQuery(rank).segment();
    }

    /**
     * @return CPU time (user + system, every thread) this process has used, in nanoseconds.
     */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime();
    }

    static String millis(final double ms) {
        return String.format(Locale.ROOT, "%.1f", ms);
    }

    static void sleep(final long ms) {
        try {
            Thread.sleep(ms);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
