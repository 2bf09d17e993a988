package org.rma4j.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.OpenOption;
import java.util.Set;

/**
 * A file mapped read-write and shared, as one {@link MemorySegment} owned by a shared arena.
 *
 * <p>Files are created exclusively ({@code O_CREAT|O_EXCL}, no symbolic link followed) with mode
 * 0600, and with all their storage reserved ({@link FileSpace}): a file that does not fit in its file
 * system fails at creation with {@link ShmSpaceException}, instead of a store into its mapping
 * faulting later. The mapping stays valid after the file is unlinked; {@link #close()} unmaps it. The
 * segment may be used by any thread of the process until then.
 *
 * <p>This class checks no format: files with a header are validated by {@link FileHeader#check}.
 */
public final class MappedFile implements AutoCloseable {
    private static final Set<OpenOption> OPEN_OPTIONS = Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
        LinkOption.NOFOLLOW_LINKS);

    private final Path path;
    private final Arena arena;
    private final MemorySegment segment;

    private MappedFile(final Path path, final Arena arena, final MemorySegment segment) {
        this.path = path;
        this.arena = arena;
        this.segment = segment;
    }

    /**
     * Creates a new zero-filled file of {@code sizeBytes}, reserves its storage and maps it. On failure
     * no file is left at {@code path}.
     *
     * @throws ShmSpaceException    if its file system has too little free space for it.
     * @throws UncheckedIOException if the file exists or cannot be created.
     */
    public static MappedFile create(final Path path, final long sizeBytes) {
        if (sizeBytes <= 0) {
            throw new IllegalArgumentException("file size " + sizeBytes + " must be positive: " + path);
        }
        try {
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                FileSpace.reserve(path, sizeBytes);
                try (FileChannel channel = FileChannel.open(path, OPEN_OPTIONS)) {
                    return map(path, channel, sizeBytes);
                }
            } catch (final IOException | RuntimeException | Error e) {
                Files.deleteIfExists(path);
                throw e;
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot create shared file " + path + " of " + sizeBytes + " bytes", e);
        }
    }

    /**
     * Maps an existing file in full, whatever its size (an empty file gives an empty segment).
     *
     * @throws UncheckedIOException if the file cannot be opened.
     */
    public static MappedFile open(final Path path) {
        try (FileChannel channel = FileChannel.open(path, OPEN_OPTIONS)) {
            return map(path, channel, channel.size());
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot open shared file " + path, e);
        }
    }

    /**
     * Maps the whole file open in {@code channel} (read and write), e.g. one reached through
     * {@code /proc/<pid>/fd}, which {@link #open} does not follow.
     *
     * @param path    the name to report in errors.
     * @param channel an open channel of the file; it may be closed once this returns.
     */
    public static MappedFile map(final Path path, final FileChannel channel) {
        try {
            return map(path, channel, channel.size());
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot map shared file " + path, e);
        }
    }

    private static MappedFile map(final Path path, final FileChannel channel, final long size) throws IOException {
        final Arena arena = Arena.ofShared();
        try {
            final MemorySegment segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            return new MappedFile(path, arena, segment);
        } catch (final IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    public MemorySegment segment() {
        return segment;
    }

    /**
     * Removes the file's name; the mapping stays valid.
     */
    public void unlink() {
        try {
            Files.deleteIfExists(path);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot unlink " + path, e);
        }
    }

    /**
     * Unmaps the file. Idempotent.
     */
    @Override
    public void close() {
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
