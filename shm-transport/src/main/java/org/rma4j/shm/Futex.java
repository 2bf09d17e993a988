package org.rma4j.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * Linux futex wait and wake on a 32-bit word of a shared mapping, through
 * {@code syscall(SYS_futex, ...)} called with {@link Linker#nativeLinker()}.
 *
 * <p>The operations are the non-private {@code FUTEX_WAIT} and {@code FUTEX_WAKE}: the kernel keys a
 * non-private futex on the backing page of the mapping, so processes that map the same file wait on
 * and wake the same futex. Where the syscall is not available (an architecture without a known
 * {@code SYS_futex} number, or a JVM without native access) {@link #wait} degrades to a short timed
 * park and {@link #wake} to nothing; callers bound their sleeps anyway (see {@link WaitStrategy}).
 */
public final class Futex {
    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    /** errno of a FUTEX_WAIT whose timeout expired (Linux, every architecture listed below). */
    private static final int ETIMEDOUT = 110;

    /** {@code struct timespec} of a FUTEX_WAIT's relative timeout (LP64: two longs). */
    private static final StructLayout TIMESPEC = MemoryLayout.structLayout(ValueLayout.JAVA_LONG.withName("tv_sec"),
        ValueLayout.JAVA_LONG.withName("tv_nsec"));
    private static final long TV_SEC_OFFSET = TIMESPEC.byteOffset(MemoryLayout.PathElement.groupElement("tv_sec"));
    private static final long TV_NSEC_OFFSET = TIMESPEC.byteOffset(MemoryLayout.PathElement.groupElement("tv_nsec"));
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static final long SYS_FUTEX = sysFutexNumber();
    private static final MethodHandle SYSCALL = lookupSyscall();
    /** The same call with errno captured into a segment passed first, for FUTEX_WAIT. */
    private static final MethodHandle SYSCALL_WITH_ERRNO = lookupSyscall(Linker.Option.captureCallState("errno"));

    private Futex() {
    }

    /**
     * Whether the futex syscall is in use (false: waits degrade to timed parking).
     *
     * @return true when {@code syscall(SYS_futex)} was linked.
     */
    public static boolean isAvailable() {
        return SYSCALL != null;
    }

    /**
     * Sleeps while the int at {@code offset} equals {@code expected}, for at most {@code timeoutNs}.
     * May return spuriously; the caller re-checks its condition.
     *
     * @param segment   a segment of a shared mapping (native memory), 4-byte aligned at offset.
     * @param offset    byte offset of the word.
     * @param expected  the value seen by the caller; the kernel returns at once if it differs.
     * @param timeoutNs upper bound of the sleep.
     * @return false when the sleep ended because {@code timeoutNs} ran out (nobody woke it and the value
     *         did not differ on entry); true otherwise, and always true without the syscall.
     */
    public static boolean wait(final MemorySegment segment, final long offset, final int expected,
        final long timeoutNs) {
        if (SYSCALL == null || SYSCALL_WITH_ERRNO == null) {
            LockSupport.parkNanos(Math.min(timeoutNs, 1_000_000L));
            return true;
        }
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment timespec = arena.allocate(TIMESPEC);
            timespec.set(ValueLayout.JAVA_LONG, TV_SEC_OFFSET, timeoutNs / NANOS_PER_SECOND);
            timespec.set(ValueLayout.JAVA_LONG, TV_NSEC_OFFSET, timeoutNs % NANOS_PER_SECOND);
            final MemorySegment callState = arena.allocate(CALL_STATE);
            final long result = (long)SYSCALL_WITH_ERRNO.invokeExact(callState, SYS_FUTEX,
                segment.asSlice(offset, Integer.BYTES), (long)FUTEX_WAIT, (long)expected, timespec, MemorySegment.NULL,
                0L);
            return result == 0 || (int)ERRNO.get(callState, 0L) != ETIMEDOUT;
        } catch (final Throwable t) {
            throw new IllegalStateException("futex wait failed", t);
        }
    }

    /**
     * Wakes up to {@code count} sleepers on the int at {@code offset}.
     *
     * @param segment a segment of a shared mapping, 4-byte aligned at offset.
     * @param offset  byte offset of the word.
     * @param count   how many sleepers to wake at most.
     */
    public static void wake(final MemorySegment segment, final long offset, final int count) {
        if (SYSCALL == null) {
            return;
        }
        try {
            final long ignored = (long)SYSCALL.invokeExact(SYS_FUTEX, segment.asSlice(offset, Integer.BYTES),
                (long)FUTEX_WAKE, (long)count, MemorySegment.NULL, MemorySegment.NULL, 0L);
        } catch (final Throwable t) {
            throw new IllegalStateException("futex wake failed", t);
        }
    }

    /**
     * Whether the page holding the int at {@code offset} is backed by its file, found without touching
     * it: a {@code FUTEX_WAKE} of nobody makes the kernel fault the page in, and fails with
     * {@code EFAULT} where a load would raise SIGBUS (the file was truncated below it).
     *
     * @param segment a segment of a shared mapping, 4-byte aligned at offset.
     * @param offset  byte offset of the word.
     * @return false if the page has no file behind it; true also where the syscall is not available.
     */
    public static boolean isBacked(final MemorySegment segment, final long offset) {
        if (SYSCALL == null) {
            return true;
        }
        try {
            final long result = (long)SYSCALL.invokeExact(SYS_FUTEX, segment.asSlice(offset, Integer.BYTES),
                (long)FUTEX_WAKE, 0L, MemorySegment.NULL, MemorySegment.NULL, 0L);
            return result >= 0;
        } catch (final Throwable t) {
            throw new IllegalStateException("futex probe failed", t);
        }
    }

    private static long sysFutexNumber() {
        final String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        final String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux")) {
            return -1;
        }
        return switch (arch) {
            case "amd64", "x86_64" -> 202;
            case "aarch64", "riscv64" -> 98;
            default -> -1;
        };
    }

    private static MethodHandle lookupSyscall(final Linker.Option... options) {
        if (SYS_FUTEX < 0) {
            return null;
        }
        try {
            final Linker linker = Linker.nativeLinker();
            final MemorySegment symbol = linker.defaultLookup().find("syscall").orElse(null);
            if (symbol == null) {
                return null;
            }
            // long syscall(long number, ...): every variadic argument is passed as a full register.
            final FunctionDescriptor descriptor = FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS,
                ValueLayout.ADDRESS, ValueLayout.JAVA_LONG);
            final Linker.Option[] all = Arrays.copyOf(options, options.length + 1);
            all[options.length] = Linker.Option.firstVariadicArg(1);
            return linker.downcallHandle(symbol, descriptor, all);
        } catch (final RuntimeException e) {
            // IllegalCallerException when native access is not enabled for this module.
            return null;
        }
    }
}
