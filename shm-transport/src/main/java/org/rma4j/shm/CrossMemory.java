package org.rma4j.shm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Copies bytes between this process's memory and another's with one copy by the kernel: Linux
 * {@code process_vm_readv(2)} and {@code process_vm_writev(2)} ("cross memory attach", the single-copy mechanism of
 * Open MPI's shared-memory transport), called through the FFM linker. A receiver that knows a sender's pid and the
 * address of its buffer reads the buffer straight into its own memory, instead of the sender copying it into shared
 * memory and the receiver copying it out; a sender told the address of the receive's buffer writes into it.
 *
 * <p>The kernel allows the read where the caller may ptrace the other process: same user, and no Yama
 * restriction ({@code /proc/sys/kernel/yama/ptrace_scope} absent or 0; at 1 only a descendant may be read,
 * and the ranks of a job are siblings). {@link #isAvailable()} is true only where the call links, Yama does not
 * restrict it and a read and a write of this process's own memory through the calls succeed (a seccomp filter, as
 * container runtimes install, fails that read too).
 */
public final class CrossMemory {
    /** {@code errno} of a read from a process that is gone (or a zombie: its memory is). */
    public static final int ESRCH = 3;
    static final int EINTR = 4;
    static final int EFAULT = 14;

    /** Bytes of a heap target copied through native memory per call (the kernel writes native memory only). */
    static final long SCRATCH_BYTES = 1 << 20;
    /** {@code struct iovec}: {@code void *iov_base; size_t iov_len} on LP64. */
    private static final long IOVEC_BYTES = 16;

    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle READV = lookup("process_vm_readv");
    private static final MethodHandle WRITEV = lookup("process_vm_writev");
    private static final boolean AVAILABLE = READV != null && WRITEV != null && yamaAllows() && probe();

    private CrossMemory() {
    }

    /**
     * @return whether {@link #read} and {@link #write} work here (see the class comment).
     */
    public static boolean isAvailable() {
        return AVAILABLE;
    }

    /**
     * Reads {@code into.byteSize()} bytes at {@code address} in process {@code pid} into {@code into}.
     *
     * @param pid     the process to read from.
     * @param address the start of the bytes in that process's address space.
     * @param into    where the bytes go: native memory directly, a heap segment through native scratch memory.
     * @return 0, or the {@code errno} of the failed call ({@code ESRCH} 3: no such process; {@code EFAULT} 14:
     *         the range is not mapped there; {@code EPERM} 1: not permitted; {@code ENOSYS} 38: no such call).
     *         {@code into} may then hold any part of the bytes.
     * @throws IllegalStateException if the calls are not {@link #isAvailable() available}.
     */
    public static int read(final long pid, final long address, final MemorySegment into) {
        return transfer(READV, pid, address, into, false);
    }

    /**
     * Writes the bytes of {@code from} to {@code address} in process {@code pid} ({@code process_vm_writev(2)}).
     *
     * @param from the bytes: native memory directly, a heap segment through native scratch memory.
     * @return as {@link #read}; the range there may then hold any part of the bytes.
     * @throws IllegalStateException if the calls are not {@link #isAvailable() available}.
     */
    public static int write(final long pid, final long address, final MemorySegment from) {
        return transfer(WRITEV, pid, address, from, true);
    }

    private static int transfer(final MethodHandle call, final long pid, final long address, final MemorySegment local,
        final boolean write) {
        if (call == null) {
            throw new IllegalStateException("process_vm_readv / writev are not available in this process");
        }
        final long size = local.byteSize();
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment localIov = arena.allocate(2 * IOVEC_BYTES, Long.BYTES);
            final MemorySegment remoteIov = localIov.asSlice(IOVEC_BYTES);
            final MemorySegment state = arena.allocate(CALL_STATE);
            if (local.isNative()) {
                return transferNative(call, pid, address, local, localIov, remoteIov, state);
            }
            final MemorySegment scratch = arena.allocate(Math.min(size, SCRATCH_BYTES), Align.CACHE_LINE);
            for (long offset = 0; offset < size; offset += scratch.byteSize()) {
                final long bytes = Math.min(scratch.byteSize(), size - offset);
                if (write) {
                    MemorySegment.copy(local, offset, scratch, 0, bytes);
                }
                final int error = transferNative(call, pid, address + offset, scratch.asSlice(0, bytes), localIov,
                    remoteIov, state);
                if (error != 0) {
                    return error;
                }
                if (!write) {
                    MemorySegment.copy(scratch, 0, local, offset, bytes);
                }
            }
            return 0;
        }
    }

    /**
     * One transfer between native memory here and {@code address} there, one call per part the kernel copied (it
     * stops early only at a fault).
     */
    private static int transferNative(final MethodHandle call, final long pid, final long address,
        final MemorySegment local, final MemorySegment localIov, final MemorySegment remoteIov,
        final MemorySegment state) {
        final long size = local.byteSize();
        long done = 0;
        while (done < size) {
            localIov.set(ValueLayout.JAVA_LONG, 0, local.address() + done);
            localIov.set(ValueLayout.JAVA_LONG, Long.BYTES, size - done);
            remoteIov.set(ValueLayout.JAVA_LONG, 0, address + done);
            remoteIov.set(ValueLayout.JAVA_LONG, Long.BYTES, size - done);
            final long copied;
            try {
                copied = (long)call.invokeExact(state, (int)pid, localIov, 1L, remoteIov, 1L, 0L);
            } catch (final Throwable t) {
                throw new IllegalStateException("process_vm_readv / writev failed", t);
            }
            if (copied < 0) {
                final int error = (int)ERRNO.get(state, 0L);
                if (error != EINTR) {
                    return error;
                }
            } else if (copied == 0) {
                return EFAULT;
            } else {
                done += copied;
            }
        }
        return 0;
    }

    private static MethodHandle lookup(final String name) {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return null;
        }
        try {
            final Linker linker = Linker.nativeLinker();
            // ssize_t process_vm_readv / process_vm_writev(pid_t pid, const struct iovec *local_iov,
            //     unsigned long liovcnt, const struct iovec *remote_iov, unsigned long riovcnt, unsigned long flags)
            return linker.downcallHandle(linker.defaultLookup().find(name).orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                    ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                Linker.Option.captureCallState("errno"));
        } catch (final RuntimeException e) {
            // IllegalCallerException without native access, NoSuchElementException without the symbol.
            return null;
        }
    }

    /**
     * @return whether Yama lets a process read its siblings (no Yama, or ptrace_scope 0).
     */
    private static boolean yamaAllows() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/yama/ptrace_scope")).strip().equals("0");
        } catch (final NoSuchFileException e) {
            return true;
        } catch (final IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * @return whether a read of a word of this process's own memory through the call returns the word.
     */
    private static boolean probe() {
        try (Arena arena = Arena.ofConfined()) {
            final long expected = 0x524D_4134_4A43_4D41L;
            final MemorySegment source = arena.allocate(ValueLayout.JAVA_LONG);
            source.set(ValueLayout.JAVA_LONG, 0, expected);
            final MemorySegment target = arena.allocate(ValueLayout.JAVA_LONG);
            final MemorySegment back = arena.allocate(ValueLayout.JAVA_LONG);
            final long self = ProcessHandle.current().pid();
            return read(self, source.address(), target) == 0 && target.get(ValueLayout.JAVA_LONG, 0) == expected
                && write(self, back.address(), target) == 0 && back.get(ValueLayout.JAVA_LONG, 0) == expected;
        } catch (final RuntimeException e) {
            return false;
        }
    }
}
