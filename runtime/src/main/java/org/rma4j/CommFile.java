package org.rma4j;

import java.lang.foreign.MemorySegment;
import org.rma4j.internal.CommunicatorLayout;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.DisseminationBarrier;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.Words;

/**
 * One member's mapping of a communicator file ({@link CommunicatorLayout}): its barrier, the members'
 * call words, records and exchange halves. Made by {@link CommCreation}; the file's name is
 * {@code comm-<creator's job rank>-<creator's number>}, unique in the job because each rank numbers the
 * communicators it creates itself.
 */
final class CommFile implements CollectiveCalls.CallWords {
    private final MappedFile file;
    private final MemorySegment segment;
    private final int members;
    private final int halfLength;
    private boolean closed;

    private CommFile(final MappedFile file, final int members) {
        this.file = file;
        this.segment = file.segment();
        this.members = members;
        this.halfLength = CommunicatorLayout.halfLength(members);
    }

    /**
     * @return the file name of the communicator that job rank {@code creator} numbered {@code number}.
     */
    static String name(final int creator, final int number) {
        return "comm-" + creator + "-" + number;
    }

    /**
     * Creates and publishes the file of a communicator of {@code jobRanks} (in communicator order).
     *
     * @throws org.rma4j.shm.ShmSpaceException if the job's file system has too little room.
     * @throws RmaException                     NO_MEM if the process's mapping budget is used up.
     */
    static CommFile create(final String call, final JobDirectory directory, final int[] jobRanks, final int creator,
        final int number) {
        MappingBudget.check(call, 1);
        final MappedFile file = MappedFile.create(directory.file(name(creator, number)),
            CommunicatorLayout.fileLength(jobRanks.length));
        try {
            CommunicatorLayout.write(file.segment(), jobRanks, creator, number);
            FileHeader.publish(file.segment(), CommunicatorLayout.MAGIC, CommunicatorLayout.VERSION);
            MappingBudget.add(1);
            return new CommFile(file, jobRanks.length);
        } catch (final RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /**
     * Maps the file of a communicator and checks it against what the creating exchange said.
     *
     * @throws org.rma4j.shm.ShmFormatException   if it does not match.
     * @throws java.io.UncheckedIOException if it cannot be mapped.
     * @throws RmaException                 NO_MEM if the process's mapping budget is used up.
     */
    static CommFile open(final String call, final JobDirectory directory, final int[] jobRanks, final int creator,
        final int number) {
        MappingBudget.check(call, 1);
        final MappedFile file = MappedFile.open(directory.file(name(creator, number)));
        try {
            CommunicatorLayout.check(file.segment(), file.path(), jobRanks, creator, number);
            MappingBudget.add(1);
            return new CommFile(file, jobRanks.length);
        } catch (final RuntimeException e) {
            file.close();
            throw e;
        }
    }

    @Override
    public long call(final int member, final int parity) {
        return Words.getLongVolatile(segment, CommunicatorLayout.callOffset(members, halfLength, member, parity));
    }

    @Override
    public void publishCall(final int member, final int parity, final long call) {
        // NOTE: a release store: the call's barrier arrival (a volatile store after a full fence) follows it, so a
        // peer past the barrier sees it; a full fence here cost about 15 ns of an empty fence.
        Words.putLongRelease(segment, CommunicatorLayout.callOffset(members, halfLength, member, parity), call);
    }

    /**
     * @return the record area of {@code member} ({@link CommunicatorLayout#RECORD_LENGTH} bytes).
     */
    MemorySegment record(final int member) {
        return segment.asSlice(CommunicatorLayout.recordOffset(members, halfLength, member),
            CommunicatorLayout.RECORD_LENGTH);
    }

    /**
     * @return exchange half {@code half} (0 or 1) of {@code member}.
     */
    MemorySegment half(final int member, final int half) {
        return segment.asSlice(CommunicatorLayout.halfOffset(members, halfLength, member, half), halfLength);
    }

    int halfLength() {
        return halfLength;
    }

    /**
     * @return the communicator's barrier, for {@code member}'s party, which waits with {@code waitStrategy}.
     */
    DisseminationBarrier barrier(final int member, final WaitStrategy waitStrategy, final Liveness liveness) {
        return new DisseminationBarrier(segment, CommunicatorLayout.barrierOffset(members), members, member,
            waitStrategy, liveness);
    }

    /** Removes the file's name; the members' mappings stay valid. */
    void unlink() {
        file.unlink();
    }

    /** Unmaps the file. Idempotent. */
    void close() {
        if (!closed) {
            closed = true;
            file.close();
            MappingBudget.release(1);
        }
    }
}
