package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.rma4j.internal.CommRecordLayout;
import org.rma4j.shm.ShmSpaceException;
import org.rma4j.shm.Words;

/**
 * The collective making of communicators from a parent (MPI_COMM_SPLIT, MPI-3.1 section 6.4.2; dup,
 * create, split_type and the Cartesian constructors are splits with particular colors and keys).
 *
 * <p>Protocol, over the parent's record areas ({@link CommRecordLayout}) and barrier, each barrier a
 * collective call of kind {@link CollectiveCalls.Kind#COMM_CREATE} on the parent:
 * <ol>
 *   <li>every member writes its color, key, status (the outcome of its argument checks), agreement
 *   value and a number of its own, which it would give a communicator it creates; barrier 1;</li>
 *   <li>every member reads every record and computes every new communicator: the members of one color,
 *   ordered by key, then by parent rank. The first of each (its rank 0, the creator) creates and
 *   publishes its file, named by its job rank and its number, and records the outcome; barrier 2;</li>
 *   <li>every member reads every create status; the others of each new communicator map and check its
 *   file and record the outcome; barrier 3; every member reads every open status, and each creator
 *   unlinks its file (every member holds a mapping, so nothing is left in the job directory if the job
 *   is killed later; the memory goes when the last member unmaps it).</li>
 * </ol>
 * A bad argument, an agreement that differs, or a failure to create or map at any member makes every
 * member of the parent throw, after all barriers, with everything it mapped unmapped: the parent stays
 * usable. A member whose color is {@link CommRecordLayout#UNDEFINED_COLOR} gets no communicator.
 *
 * <p>In a job across nodes, a new communicator whose members all run on one node is made as above (its file
 * lives in that node's job directory); one whose members run on several nodes gets no file: its collective
 * calls are messages between its members ({@link MpiCollective}), keyed by the creator's job rank and number.
 */
final class CommCreation {
    private CommCreation() {
    }

    /**
     * Splits {@code parent}.
     *
     * @param agreement a value every member must pass alike (a digest of create's group, say), else ARG.
     * @param ownError  this member's argument error, thrown by it after the protocol (the others name it).
     * @return this member's new communicator's context, or null for the undefined color.
     */
    static CommContext split(final CommContext parent, final String call, final int color, final int key,
        final long agreement, final RmaException ownError) {
        final Attempt attempt = new Attempt(parent, call);
        attempt.propose(color, key, agreement, ownError);
        barrier(parent, attempt);
        attempt.gather();
        attempt.createFile();
        barrier(parent, attempt);
        attempt.open();
        barrier(parent, attempt);
        return attempt.result();
    }

    /**
     * Makes the world's exchange file: a communicator file of every rank, whose halves the world's data
     * collectives use (its call words and barrier stay unused: the world's are in the control file).
     */
    static CommFile exchangeFile(final CommContext world) {
        final Attempt attempt = new Attempt(world, "the world's first data collective");
        attempt.propose(0, world.rank(), 0, null);
        barrier(world, attempt);
        attempt.gather();
        attempt.createFile();
        barrier(world, attempt);
        attempt.open();
        barrier(world, attempt);
        attempt.checkOutcome();
        return attempt.file;
    }

    private static void barrier(final CommContext parent, final Attempt attempt) {
        try {
            parent.collective(CollectiveCalls.Kind.COMM_CREATE, 0, parent.barrierWait());
        } catch (final RuntimeException e) {
            attempt.discard();
            throw e;
        }
    }

    /** One member's part in one split. */
    private static final class Attempt {
        private final CommContext parent;
        private final RmaJob job;
        private final String call;
        private final int size;
        private final int rank;
        private final MemorySegment own;
        private RmaException ownError;
        private RmaException problem;
        /** The parent ranks of this member's new communicator, in its order; null for the undefined color. */
        private int[] group;
        private int creatorJobRank;
        private int creatorNumber;
        private CommFile file;
        /** Whether this member's new communicator's members run on several nodes (no file: messages). */
        private boolean acrossNodes;
        private RuntimeException createProblem;

        Attempt(final CommContext parent, final String call) {
            this.parent = parent;
            this.job = parent.job();
            this.call = call;
            this.size = parent.size();
            this.rank = parent.rank();
            this.own = parent.record(rank);
        }

        /** Phase 1: writes this member's record. */
        void propose(final int color, final int key, final long agreement, final RmaException error) {
            ownError = error;
            Words.putInt(own, CommRecordLayout.COLOR_OFFSET, color);
            Words.putInt(own, CommRecordLayout.KEY_OFFSET, key);
            // NOTE: taken now, whether or not this member creates a file: numbers stay unique when this rank
            // makes communicators from several parents at once, in several threads.
            Words.putInt(own, CommRecordLayout.NUMBER_OFFSET, job.takeCommNumber());
            Words.putInt(own, CommRecordLayout.STATUS_OFFSET, error == null ? 0 : error.errorClass().code());
            Words.putLong(own, CommRecordLayout.AGREEMENT_OFFSET, agreement);
            Words.putInt(own, CommRecordLayout.CREATE_STATUS_OFFSET, 0);
        }

        /** After barrier 1: reads every record, finds this member's communicator and its creator. */
        void gather() {
            final long agreement = Words.getLong(parent.record(0), CommRecordLayout.AGREEMENT_OFFSET);
            final int myColor = Words.getInt(own, CommRecordLayout.COLOR_OFFSET);
            final List<int[]> mine = new ArrayList<>();
            for (int r = 0; r < size && problem == null; r++) {
                final MemorySegment record = parent.record(r);
                final int status = Words.getInt(record, CommRecordLayout.STATUS_OFFSET);
                final long theirs = Words.getLong(record, CommRecordLayout.AGREEMENT_OFFSET);
                if (status != 0) {
                    final ErrorClass bad = ErrorClass.ofCode(status);
                    problem = new RmaException(bad,
                        call + " failed: rank " + r + " passed an invalid argument (" + bad.mpiName() + ")");
                } else if (theirs != agreement) {
                    problem = new RmaException(ErrorClass.ARG,
                        call + " failed: rank " + r + " passed other arguments" + " than rank 0 (digest "
                            + Long.toHexString(theirs) + " against " + Long.toHexString(agreement)
                            + "); every rank must pass the same");
                } else if (myColor != CommRecordLayout.UNDEFINED_COLOR
                    && Words.getInt(record, CommRecordLayout.COLOR_OFFSET) == myColor) {
                    mine.add(new int[] {Words.getInt(record, CommRecordLayout.KEY_OFFSET), r});
                }
            }
            if (problem != null || myColor == CommRecordLayout.UNDEFINED_COLOR) {
                return;
            }
            // MPI-3.1 section 6.4.2: ranked by key, ties broken by the rank in the parent.
            mine.sort(Comparator.<int[]>comparingInt(entry -> entry[0]).thenComparingInt(entry -> entry[1]));
            group = mine.stream().mapToInt(entry -> entry[1]).toArray();
            for (final int member : group) {
                acrossNodes |= job.nodeOf(parent.jobRank(member)) != job.nodeOf(parent.jobRank(group[0]));
            }
            creatorJobRank = parent.jobRank(group[0]);
            creatorNumber = Words.getInt(parent.record(group[0]), CommRecordLayout.NUMBER_OFFSET);
        }

        private int[] jobRanks() {
            final int[] jobRanks = new int[group.length];
            for (int i = 0; i < group.length; i++) {
                jobRanks[i] = parent.jobRank(group[i]);
            }
            return jobRanks;
        }

        /**
         * Phase 2: a creator creates and publishes its communicator's file; over a parent across nodes every
         * member first takes part in the split of the parent's MPI communicator.
         */
        void createFile() {
            if (problem != null || group == null || group[0] != rank || acrossNodes) {
                return;
            }
            try {
                file = CommFile.create(call, job.directory(), jobRanks(), creatorJobRank, creatorNumber);
            } catch (final ShmSpaceException e) {
                createProblem = e;
                Words.putLong(own, CommRecordLayout.CREATE_ASKED_BYTES_OFFSET, e.requestedBytes());
                Words.putLong(own, CommRecordLayout.CREATE_FREE_BYTES_OFFSET, e.usableBytes());
                Words.putInt(own, CommRecordLayout.CREATE_STATUS_OFFSET, ErrorClass.NO_MEM.code());
            } catch (final RmaException e) {
                createProblem = e;
                Words.putInt(own, CommRecordLayout.CREATE_STATUS_OFFSET, e.errorClass().code());
            } catch (final RuntimeException e) {
                createProblem = e;
                Words.putInt(own, CommRecordLayout.CREATE_STATUS_OFFSET, ErrorClass.OTHER.code());
            }
        }

        /** Phase 3, after barrier 2: checks every creation; maps this member's new file; writes the status. */
        void open() {
            for (int r = 0; r < size && problem == null; r++) {
                final int status = Words.getInt(parent.record(r), CommRecordLayout.CREATE_STATUS_OFFSET);
                if (status != 0) {
                    problem = createFailure(r, status);
                }
            }
            RuntimeException openProblem = null;
            if (problem == null && group != null && group[0] != rank && !acrossNodes) {
                try {
                    file = CommFile.open(call, job.directory(), jobRanks(), creatorJobRank, creatorNumber);
                } catch (final RuntimeException e) {
                    openProblem = e;
                    problem = new RmaException(ErrorClass.OTHER, call + " failed: rank " + rank + " cannot map its new"
                        + " communicator's file (every rank throws): " + e.getMessage(), e);
                }
            }
            Words.putIntVolatile(own, CommRecordLayout.OPEN_STATUS_OFFSET, openProblem == null ? 0 : 1);
        }

        private RmaException createFailure(final int creator, final int status) {
            final String what = call + " failed: rank " + creator + " could not create a communicator file";
            if (status == ErrorClass.NO_MEM.code()) {
                final MemorySegment record = parent.record(creator);
                return SharedFileErrors.noSpace(what, job.directory().path(),
                    Words.getLong(record, CommRecordLayout.CREATE_ASKED_BYTES_OFFSET),
                    Words.getLong(record, CommRecordLayout.CREATE_FREE_BYTES_OFFSET), createProblem);
            }
            return new RmaException(ErrorClass.ofCode(status),
                what + (createProblem != null ? ": " + createProblem.getMessage() : ""), createProblem);
        }

        /**
         * After barrier 3: finds a member that could not map; the creator unlinks its file.
         *
         * @throws RmaException this member's own error, or the one naming the member that failed.
         */
        void checkOutcome() {
            for (int r = 0; r < size && problem == null; r++) {
                if (Words.getIntVolatile(parent.record(r), CommRecordLayout.OPEN_STATUS_OFFSET) != 0) {
                    problem = new RmaException(ErrorClass.OTHER,
                        call + " failed: rank " + r + " could not map its new communicator's file (every rank throws)");
                }
            }
            if (file != null && group[0] == rank) {
                file.unlink();
            }
            if (ownError != null || problem != null) {
                discard();
                throw ownError != null ? ownError : problem;
            }
        }

        /**
         * @return this member's new context, remembered by the job, or null for the undefined color.
         */
        CommContext result() {
            checkOutcome();
            if (group == null) {
                return null;
            }
            final int newRank = indexOf(group, rank);
            final String id = creatorJobRank + "-" + creatorNumber;
            final CommContext context = acrossNodes
                ? CommContext.acrossNodes(job, id, jobRanks(), newRank,
                    MpiCollective.key(creatorJobRank, creatorNumber), false)
                : CommContext.over(job, id, jobRanks(), newRank, file);
            job.resources().remember(context);
            return context;
        }

        /** Unmaps what this member mapped. */
        void discard() {
            if (file != null) {
                file.close();
                file = null;
            }
        }
    }

    private static int indexOf(final int[] array, final int value) {
        for (int i = 0; i < array.length; i++) {
            if (array[i] == value) {
                return i;
            }
        }
        throw new IllegalStateException(value + " is not in the group");
    }
}
