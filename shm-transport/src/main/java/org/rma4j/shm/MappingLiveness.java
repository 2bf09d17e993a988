package org.rma4j.shm;

import java.lang.foreign.MemorySegment;

/**
 * A {@link Liveness} that also checks the shared file the waiter waits in: if the file was truncated
 * under the running job (a page of the mapping has no file behind it, so every load would raise SIGBUS)
 * or its header no longer carries its magic and version, the wait ends with a
 * {@link ShmFormatException} naming the file, instead of sleeping on a futex that can never be woken.
 *
 * <p>The pages are probed with {@link Futex#isBacked} (a syscall that reports EFAULT where a load would
 * fault), the first and the last page of the mapping, before the header is read: a truncation to any
 * length that makes a page of the mapping unbacked leaves the last one unbacked.
 */
public final class MappingLiveness implements Liveness {
    private static final long PAGE_BYTES = 4096;

    private final Liveness peers;
    private final MappedFile file;
    private final long magic;
    private final int version;

    private MappingLiveness(final Liveness peers, final MappedFile file, final long magic, final int version) {
        this.peers = peers;
        this.file = file;
        this.magic = magic;
        this.version = version;
    }

    /**
     * @param peers   the check of the peers, run after the file's.
     * @param file    the mapping waited in; its header must carry {@code magic} and {@code version}.
     * @param magic   the file's magic number.
     * @param version the file's layout version.
     * @return a check of the file, then of the peers.
     */
    public static MappingLiveness of(final Liveness peers, final MappedFile file, final long magic, final int version) {
        return new MappingLiveness(peers, file, magic, version);
    }

    /**
     * @param next the check to run after this one.
     * @return a check of the file, then of this one's peers, then {@code next}.
     */
    public MappingLiveness and(final Liveness next) {
        final Liveness first = peers;
        return new MappingLiveness(() -> {
            first.check();
            next.check();
        }, file, magic, version);
    }

    /**
     * Names the fault of a load or store in the file: the JVM reports a SIGBUS in a mapping as an
     * {@link InternalError} ("a fault occurred in an unsafe memory access operation").
     *
     * @param fault the error thrown by an access to the mapping.
     * @return {@code fault}, for the caller to rethrow, if the file is intact.
     * @throws ShmFormatException naming the file, with {@code fault} as its cause, if the file was
     *                            truncated or its header overwritten.
     */
    public Error explain(final InternalError fault) {
        try {
            checkFile();
        } catch (final ShmFormatException named) {
            named.initCause(fault);
            throw named;
        }
        return fault;
    }

    /**
     * @throws ShmFormatException  if the file was truncated or its header overwritten.
     * @throws PeerFailedException from the peers' check.
     */
    @Override
    public void check() {
        checkFile();
        peers.check();
    }

    /**
     * @throws ShmFormatException if the file was truncated or its header overwritten.
     */
    public void checkFile() {
        final MemorySegment segment = file.segment();
        if (!segment.scope().isAlive()) {
            return; // unmapped by this rank: nothing is left to fault on
        }
        final long size = segment.byteSize();
        final long lastPage = Math.max(0, (size - 1) & -PAGE_BYTES);
        if (!Futex.isBacked(segment, 0) || !Futex.isBacked(segment, lastPage)) {
            throw new ShmFormatException(file.path(), "was truncated while the job used it: its mapping of " + size
                + " bytes is no longer backed by the file, and no rank can signal through it");
        }
        FileHeader.check(segment, file.path(), magic, version);
    }
}
