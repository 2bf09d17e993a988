package org.rma4j.shm;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * Linux {@code membarrier(2)} through the FFM linker: the heavy side of an asymmetric fence (as folly's
 * {@code asymmetricHeavyBarrier} and liburcu's membarrier flavour use it).
 *
 * <p>{@link #globalExpedited()} ({@code MEMBARRIER_CMD_GLOBAL_EXPEDITED}) returns only after every thread
 * of every process that {@link #registerGlobalExpedited() registered} has passed, in the kernel's words,
 * "through a state where all memory accesses to user-space addresses match program order" between the
 * call's entry and its return: a running thread is interrupted and issues a full barrier; a thread that is
 * not running has one in its context switch. Its callers pair it with <em>light</em> sides that need no
 * hardware fence, only program order (see {@link WaitWords#signalAsymmetric}): of two threads where one
 * does {@code store A; load B} (light, registered) and the other {@code store B; membarrier; load A},
 * at least one of the loads sees the other thread's store.
 *
 * <p>Where the call is not available (another OS or architecture, a kernel without the command, a seccomp
 * filter, no native access) {@link #isGlobalExpeditedSupported()} is false and callers keep the symmetric
 * protocol: a full fence on both sides.
 */
public final class Membarrier {
    /** System property: {@code false} makes {@link #isGlobalExpeditedSupported()} false (tests, comparisons). */
    public static final String ENABLED_PROP_NAME = "rma4j.membarrier";
    /** Default: use membarrier where the kernel supports it. */
    public static final boolean ENABLED_DEFAULT = true;

    static final int CMD_QUERY = 0;
    static final int CMD_GLOBAL_EXPEDITED = 1 << 1;
    static final int CMD_REGISTER_GLOBAL_EXPEDITED = 1 << 2;

    private static final long SYS_MEMBARRIER = sysMembarrierNumber();
    private static final MethodHandle SYSCALL = lookupSyscall();
    private static final boolean SUPPORTED = query();

    /** Whether this process registered (guarded by the class's monitor, read racily as a hint). */
    private static volatile boolean registered;

    private Membarrier() {
    }

    /**
     * @return whether {@code MEMBARRIER_CMD_GLOBAL_EXPEDITED} and its registration are available and enabled
     *         ({@link #ENABLED_PROP_NAME}).
     */
    public static boolean isGlobalExpeditedSupported() {
        return SUPPORTED;
    }

    /**
     * Registers this process for {@link #globalExpedited()} barriers issued by any process; idempotent.
     *
     * @return true if this process is registered; false if the command is not supported (the caller then
     *         keeps its full fence).
     */
    public static boolean registerGlobalExpedited() {
        if (!SUPPORTED) {
            return false;
        }
        if (registered) {
            return true;
        }
        synchronized (Membarrier.class) {
            if (!registered) {
                registered = call(CMD_REGISTER_GLOBAL_EXPEDITED) == 0;
            }
            return registered;
        }
    }

    /**
     * Issues {@code MEMBARRIER_CMD_GLOBAL_EXPEDITED}: a full fence here, and every running thread of every
     * registered process passes a full barrier before this returns. A system call and inter-processor
     * interrupts: microseconds; for slow paths only.
     *
     * @throws IllegalStateException if the command is not supported or the call fails (a caller that relies
     *                               on it must not go on as if it had happened).
     */
    public static void globalExpedited() {
        if (!SUPPORTED) {
            throw new IllegalStateException("membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) is not supported here");
        }
        final long result = call(CMD_GLOBAL_EXPEDITED);
        if (result != 0) {
            throw new IllegalStateException("membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) returned " + result);
        }
    }

    /**
     * The heavy side for a caller whose light partners may or may not be registered: {@link #globalExpedited()}
     * where supported, else a full fence (then the light sides use full fences too).
     */
    public static void heavyFence() {
        if (SUPPORTED) {
            globalExpedited();
        } else {
            VarHandle.fullFence();
        }
    }

    private static boolean query() {
        if (SYSCALL == null
            || !Boolean.parseBoolean(System.getProperty(ENABLED_PROP_NAME, Boolean.toString(ENABLED_DEFAULT)))) {
            return false;
        }
        final long commands = call(CMD_QUERY);
        final long needed = CMD_GLOBAL_EXPEDITED | CMD_REGISTER_GLOBAL_EXPEDITED;
        return commands >= 0 && (commands & needed) == needed;
    }

    private static long call(final int command) {
        try {
            return (long)SYSCALL.invokeExact(SYS_MEMBARRIER, (long)command, 0L, 0L);
        } catch (final Throwable t) {
            throw new IllegalStateException("membarrier(" + command + ") failed", t);
        }
    }

    private static long sysMembarrierNumber() {
        final String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        final String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux")) {
            return -1;
        }
        return switch (arch) {
            case "amd64", "x86_64" -> 324;
            case "aarch64", "riscv64" -> 283;
            default -> -1;
        };
    }

    private static MethodHandle lookupSyscall() {
        if (SYS_MEMBARRIER < 0) {
            return null;
        }
        try {
            final Linker linker = Linker.nativeLinker();
            final MemorySegment symbol = linker.defaultLookup().find("syscall").orElse(null);
            if (symbol == null) {
                return null;
            }
            // long syscall(long number, ...): membarrier(int cmd, unsigned int flags, int cpu_id).
            return linker.downcallHandle(symbol, FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                Linker.Option.firstVariadicArg(1));
        } catch (final RuntimeException e) {
            // IllegalCallerException when native access is not enabled for this module.
            return null;
        }
    }
}
