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
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * Reserves the storage of a file, so that a shared mapping of it never faults for want of space: on a
 * sparse tmpfs file the first store into a page the file system cannot supply ends the process with
 * SIGBUS, while a reservation that does not fit fails at once with an error.
 *
 * <p>On Linux the reservation is {@code posix_fallocate(3)} on a descriptor from {@code open(2)}, both
 * called with {@link Linker#nativeLinker()}. {@code posix_fallocate} returns its error number instead of
 * setting {@code errno}; {@code open} sets {@code errno}, which is captured with
 * {@link Linker.Option#captureCallState}. tmpfs allocates every page at once (it zeroes each at its first
 * fault) and, when the file system is full, frees the pages of the failed call before returning
 * {@code ENOSPC}. Where the functions cannot be linked (another OS or architecture, a JVM without native
 * access) the file is filled with zeros through a {@link FileChannel} instead, which reserves the same
 * pages more slowly.
 */
final class FileSpace {
    private static final int EINTR = 4;
    private static final int ENOMEM = 12;
    private static final int ENOSPC = 28;
    private static final int EDQUOT = 122;

    private static final int O_RDWR = 2;
    private static final int O_CLOEXEC = 02000000;
    private static final int O_NOFOLLOW = noFollowFlag();

    private static final int FILL_CHUNK_BYTES = 1 << 20;

    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static final MethodHandle OPEN;
    private static final MethodHandle POSIX_FALLOCATE;
    private static final MethodHandle CLOSE;

    static {
        MethodHandle open = null;
        MethodHandle fallocate = null;
        MethodHandle close = null;
        if (O_NOFOLLOW != 0) {
            try {
                final Linker linker = Linker.nativeLinker();
                // int open(const char *pathname, int flags, ...): the mode is passed as the variadic int.
                open = linker.downcallHandle(linker.defaultLookup().find("open").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT),
                    Linker.Option.firstVariadicArg(2), Linker.Option.captureCallState("errno"));
                // int posix_fallocate(int fd, off_t offset, off_t len), off_t of 64 bits on LP64.
                fallocate = linker.downcallHandle(linker.defaultLookup().find("posix_fallocate").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_LONG));
                close = linker.downcallHandle(linker.defaultLookup().find("close").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            } catch (final RuntimeException e) {
                // IllegalCallerException without native access, NoSuchElementException without the symbols.
                open = null;
                fallocate = null;
                close = null;
            }
        }
        OPEN = open;
        POSIX_FALLOCATE = fallocate;
        CLOSE = close;
    }

    private FileSpace() {
    }

    /**
     * Whether reservations use {@code posix_fallocate} (false: they fill the file with zeros).
     *
     * @return true when the native functions were linked.
     */
    static boolean isNative() {
        return POSIX_FALLOCATE != null;
    }

    /**
     * Extends the regular file at {@code path} to {@code sizeBytes} with every byte backed by storage of
     * its file system. The bytes read as zero.
     *
     * @param path      an existing regular file (not a symbolic link), empty or shorter than sizeBytes.
     * @param sizeBytes the size to reserve, > 0.
     * @throws ShmSpaceException if the file system (or the memory limit of the caller's cgroup, for tmpfs)
     *                           cannot supply the space; the file may then have any size up to sizeBytes.
     * @throws IOException       for any other failure.
     */
    static void reserve(final Path path, final long sizeBytes) throws IOException {
        if (POSIX_FALLOCATE != null) {
            reserveNative(path, sizeBytes);
        } else {
            fillWithZeros(path, sizeBytes);
        }
    }

    /**
     * @return the bytes an unprivileged process may still allocate in the file system of {@code path}
     *         ({@code statvfs} {@code f_bavail * f_frsize}), or -1 if it cannot be read.
     */
    static long usableBytes(final Path path) {
        try {
            return Files.getFileStore(path).getUsableSpace();
        } catch (final IOException | RuntimeException e) {
            return -1;
        }
    }

    private static void reserveNative(final Path path, final long sizeBytes) throws IOException {
        final int fd;
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment state = arena.allocate(CALL_STATE);
            fd = (int)OPEN.invokeExact(state, arena.allocateFrom(path.toString()), O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0);
            if (fd < 0) {
                throw new IOException("open(" + path + ") failed: errno " + (int)ERRNO.get(state, 0L));
            }
        } catch (final IOException | RuntimeException | Error e) {
            throw e;
        } catch (final Throwable t) {
            throw new IllegalStateException("open(" + path + ") failed", t);
        }
        try {
            int error;
            do {
                // The kernel abandons a long reservation when a signal arrives (tmpfs also gives back the
                // pages of the interrupted call); the reservation is simply asked for again.
                error = (int)POSIX_FALLOCATE.invokeExact(fd, 0L, sizeBytes);
            } while (error == EINTR);
            if (error == ENOSPC || error == EDQUOT || error == ENOMEM) {
                throw new ShmSpaceException(path, sizeBytes, usableBytes(path.getParent()),
                    new IOException("posix_fallocate: " + errorName(error)));
            }
            if (error != 0) {
                throw new IOException("posix_fallocate(" + path + ", 0, " + sizeBytes + ") failed: errno " + error);
            }
        } catch (final IOException | RuntimeException | Error e) {
            throw e;
        } catch (final Throwable t) {
            throw new IllegalStateException("posix_fallocate(" + path + ") failed", t);
        } finally {
            closeQuietly(fd);
        }
    }

    private static void closeQuietly(final int fd) {
        try {
            final int ignored = (int)CLOSE.invokeExact(fd);
        } catch (final Throwable ignored) {
            // The descriptor was ours; nothing else can be done with it.
        }
    }

    /**
     * The reservation without native calls: writes zeros from the file's end up to {@code sizeBytes}.
     * Same contract as {@link #reserve}.
     */
    static void fillWithZeros(final Path path, final long sizeBytes) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            final ByteBuffer zeros = ByteBuffer.allocate((int)Math.min(FILL_CHUNK_BYTES, sizeBytes));
            long position = channel.size();
            try {
                while (position < sizeBytes) {
                    zeros.clear().limit((int)Math.min(zeros.capacity(), sizeBytes - position));
                    position += channel.write(zeros, position);
                }
            } catch (final IOException e) {
                final long usable = usableBytes(path.getParent());
                if (usable >= 0 && usable < sizeBytes - position) {
                    throw new ShmSpaceException(path, sizeBytes, usable, e);
                }
                throw e;
            }
        }
    }

    private static String errorName(final int error) {
        return switch (error) {
            case ENOSPC -> "ENOSPC (no space left on device)";
            case EDQUOT -> "EDQUOT (disk quota exceeded)";
            case ENOMEM -> "ENOMEM (out of memory, e.g. the memory limit of the cgroup)";
            default -> "errno " + error;
        };
    }

    /**
     * @return O_NOFOLLOW of Linux on this architecture, or 0 where this class does not know it.
     */
    private static int noFollowFlag() {
        final String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux")) {
            return 0;
        }
        return switch (System.getProperty("os.arch", "").toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64", "riscv64" -> 0400000;
            case "aarch64" -> 0100000;
            default -> 0;
        };
    }
}
