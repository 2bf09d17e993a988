package org.rma4j.shm;

import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A job's control file ({@link ControlLayout}) mapped by one participant: a rank, the launcher or
 * a thread-mode runner. Each participant maps the file itself.
 *
 * <p>A {@link #subset} is a view of some of the rows, renumbered 0..n-1, over the same mapping: every
 * per-rank method of the view takes the view's numbers, while a {@link PeerFailedException} it throws
 * names the rank of the file (the job), so that a failure reads the same from every view.
 *
 * <p>Thread-safe: rows are written with volatile stores by their own rank, or by the launcher when
 * it declares a rank failed.
 */
public final class ControlFile implements AutoCloseable {
    private final MappedFile file;
    private final MemorySegment segment;
    /** Ranks of this view (of the file, when {@link #rows} is null). */
    private final int ranks;
    /** Ranks of the file, the number of rows it has. */
    private final int fileRanks;
    /** Row of each rank of this view, or null: rank r is row r. */
    private final int[] rows;

    private ControlFile(final MappedFile file, final int ranks) {
        this.file = file;
        this.segment = file.segment();
        this.ranks = ranks;
        this.fileRanks = ranks;
        this.rows = null;
        // NOTE: the waits of this process learn whether the job has more ranks than the machine has cores.
        AdaptiveSpin.jobRanks(ranks);
    }

    private ControlFile(final ControlFile whole, final int[] rows) {
        this.file = whole.file;
        this.segment = whole.segment;
        this.ranks = rows.length;
        this.fileRanks = whole.fileRanks;
        this.rows = rows;
    }

    /**
     * A view of the rows of {@code fileRanks} (ranks of the file, distinct), in which rank i is rank
     * {@code fileRanks[i]} of the file. The view shares this mapping: closing it unmaps nothing.
     *
     * @throws IllegalArgumentException for an empty array, a rank outside the file or a repeated rank.
     */
    public ControlFile subset(final int[] fileRanks) {
        if (fileRanks.length == 0) {
            throw new IllegalArgumentException("a subset of the control file needs at least one rank");
        }
        final boolean[] seen = new boolean[this.fileRanks];
        final int[] copy = fileRanks.clone();
        for (final int rank : copy) {
            if (rank < 0 || rank >= this.fileRanks || seen[rank]) {
                throw new IllegalArgumentException(
                    "rank " + rank + " is outside 0.." + (this.fileRanks - 1) + " or appears twice in the subset");
            }
            seen[rank] = true;
        }
        return new ControlFile(this, copy);
    }

    /**
     * @return the rank of the file that is {@code rank} of this view.
     */
    public int fileRank(final int rank) {
        checkRank(rank);
        return rows == null ? rank : rows[rank];
    }

    private long rowOffset(final int rank) {
        return ControlLayout.rowOffset(fileRank(rank));
    }

    /**
     * Creates and publishes a control file for a job of {@code ranks}.
     *
     * @param path        where to create it (must not exist).
     * @param ranks       job size.
     * @param launcherPid pid of the process that owns the job (0: none).
     */
    public static ControlFile create(final Path path, final int ranks, final long launcherPid) {
        ControlLayout.checkRanks(ranks);
        final MappedFile file = MappedFile.create(path, ControlLayout.fileLength(ranks));
        final MemorySegment segment = file.segment();
        ControlLayout.writeJobFields(segment, ranks, launcherPid, System.currentTimeMillis());
        FileHeader.publish(segment, ControlLayout.MAGIC, ControlLayout.VERSION);
        return new ControlFile(file, ranks);
    }

    /**
     * Maps and validates an existing control file.
     *
     * @throws ShmFormatException if the file is not a valid control file.
     */
    public static ControlFile open(final Path path) {
        return validate(path, MappedFile.open(path));
    }

    /**
     * Maps and validates the control file open in {@code channel} (for a file without a name any more,
     * reached through another process's descriptor).
     *
     * @throws ShmFormatException if the file is not a valid control file.
     */
    public static ControlFile open(final Path path, final FileChannel channel) {
        return validate(path, MappedFile.map(path, channel));
    }

    private static ControlFile validate(final Path path, final MappedFile file) {
        try {
            final MemorySegment segment = file.segment();
            FileHeader.check(segment, path, ControlLayout.MAGIC, ControlLayout.VERSION);
            return new ControlFile(file, ControlLayout.checkJobFields(segment, path));
        } catch (final RuntimeException e) {
            file.close();
            throw e;
        }
    }

    public int ranks() {
        return ranks;
    }

    public Path path() {
        return file.path();
    }

    public MemorySegment segment() {
        return segment;
    }

    public long launcherPid() {
        return Words.getLong(segment, ControlLayout.LAUNCHER_PID_OFFSET);
    }

    /**
     * Records {@code rank} as joined by the current process.
     *
     * @throws IllegalStateException if the row is not empty (the rank joined twice).
     */
    public void join(final int rank) {
        checkRank(rank);
        final long row = rowOffset(rank);
        final long state = row + ControlLayout.ROW_STATE_OFFSET;
        // NOTE: the row is claimed with a compare-and-set EMPTY -> JOINING, so of two joins of one rank
        // only one succeeds; pid and start time are written before JOINED is published for liveness
        // readers, and JOINED only replaces JOINING, never a FAILED written meanwhile by the launcher.
        if (!Words.compareAndSetInt(segment, state, RankState.EMPTY.code(), RankState.JOINING.code())) {
            throw new IllegalStateException(
                "rank " + rank + " of job " + file.path().getParent() + " cannot be joined: it is " + state(rank));
        }
        final ProcessHandle self = ProcessHandle.current();
        Words.putLong(segment, row + ControlLayout.ROW_PID_OFFSET, self.pid());
        Words.putLong(segment, row + ControlLayout.ROW_START_MILLIS_OFFSET, startMillis(self));
        if (!Words.compareAndSetInt(segment, state, RankState.JOINING.code(), RankState.JOINED.code())) {
            throw new IllegalStateException("rank " + rank + " of job " + file.path().getParent() + " was declared "
                + state(rank) + " while joining");
        }
        WaitWords.wakeAll(segment, state);
    }

    /**
     * Records that {@code rank} runs elsewhere (another node): its row stays {@link RankState#ELSEWHERE}, is
     * never joined and counts as alive for every liveness check. Only on a row that was never joined.
     *
     * @throws IllegalStateException if the row is not empty.
     */
    public void markElsewhere(final int rank) {
        checkRank(rank);
        final long state = rowOffset(rank) + ControlLayout.ROW_STATE_OFFSET;
        if (!Words.compareAndSetInt(segment, state, RankState.EMPTY.code(), RankState.ELSEWHERE.code())) {
            throw new IllegalStateException("rank " + rank + " cannot be marked as elsewhere: it is " + state(rank));
        }
    }

    /**
     * Records that {@code rank} left the job normally.
     */
    public void markFinished(final int rank) {
        setState(rank, RankState.FINISHED);
    }

    /**
     * Declares {@code rank} failed; waiters that depend on it will throw {@link PeerFailedException}.
     * A rank already recorded as {@link RankState#ABORTED} stays so.
     */
    public void markFailed(final int rank) {
        checkRank(rank);
        final long state = rowOffset(rank) + ControlLayout.ROW_STATE_OFFSET;
        int current;
        do {
            current = Words.getIntVolatile(segment, state);
        } while (current != RankState.ABORTED.code()
            && !Words.compareAndSetInt(segment, state, current, RankState.FAILED.code()));
        WaitWords.wakeAll(segment, state);
    }

    /**
     * Records that {@code rank} stopped because another rank failed. Waiters that depend on it throw
     * {@link PeerFailedException}, naming a rank that failed first when they can see one.
     */
    public void markAborted(final int rank) {
        setState(rank, RankState.ABORTED);
    }

    /**
     * Publishes the collective call {@code rank} enters, in the call word of {@code parity}.
     */
    public void publishCall(final int rank, final int parity, final long call) {
        checkRank(rank);
        // NOTE: a release store: the call's barrier arrival (a full fence, then a volatile store) follows it, so a
        // peer past the barrier sees it; a volatile store here is a second full fence per call.
        Words.putLongRelease(segment, ControlLayout.callOffset(fileRank(rank), parity), call);
    }

    /**
     * @return the call {@code rank} last published in the call word of {@code parity} (0: none yet).
     */
    public long call(final int rank, final int parity) {
        checkRank(rank);
        return Words.getLongVolatile(segment, ControlLayout.callOffset(fileRank(rank), parity));
    }

    /**
     * Publishes what {@code rank} is blocked in (see {@link ControlLayout}); for the slow path of a wait only.
     */
    public void publishWait(final int rank, final WaitState state) {
        checkRank(rank);
        final long row = rowOffset(rank);
        Words.putIntVolatile(segment, row + ControlLayout.ROW_WAIT_CALL_OFFSET, WaitState.Call.NONE);
        Words.putInt(segment, row + ControlLayout.ROW_WAIT_WINDOW_OFFSET, state.window());
        Words.putInt(segment, row + ControlLayout.ROW_WAIT_PEER_OFFSET, state.peer());
        Words.putInt(segment, row + ControlLayout.ROW_WAIT_CALL_NUMBER_OFFSET, state.callNumber());
        Words.putLong(segment, row + ControlLayout.ROW_WAIT_SINCE_MILLIS_OFFSET, state.sinceMillis());
        // NOTE: the code last, so that a reader that sees it also sees the fields it describes.
        Words.putIntVolatile(segment, row + ControlLayout.ROW_WAIT_CALL_OFFSET, state.call().code());
    }

    /**
     * Records that {@code rank} is no longer blocked in the call it published.
     */
    public void clearWait(final int rank) {
        checkRank(rank);
        Words.putIntVolatile(segment, rowOffset(rank) + ControlLayout.ROW_WAIT_CALL_OFFSET, WaitState.Call.NONE);
    }

    /**
     * @return what {@code rank} published it is blocked in, or null if it is not blocked on a slow path
     *         (or changed its state while this read it).
     */
    public WaitState waitState(final int rank) {
        checkRank(rank);
        final long row = rowOffset(rank);
        final int code = Words.getIntVolatile(segment, row + ControlLayout.ROW_WAIT_CALL_OFFSET);
        final long since = Words.getLongVolatile(segment, row + ControlLayout.ROW_WAIT_SINCE_MILLIS_OFFSET);
        final int window = Words.getIntVolatile(segment, row + ControlLayout.ROW_WAIT_WINDOW_OFFSET);
        final int peer = Words.getIntVolatile(segment, row + ControlLayout.ROW_WAIT_PEER_OFFSET);
        final int number = Words.getIntVolatile(segment, row + ControlLayout.ROW_WAIT_CALL_NUMBER_OFFSET);
        final WaitState.Call call = WaitState.Call.of(code);
        if (call == null || Words.getIntVolatile(segment, row + ControlLayout.ROW_WAIT_CALL_OFFSET) != code
            || Words.getLongVolatile(segment, row + ControlLayout.ROW_WAIT_SINCE_MILLIS_OFFSET) != since) {
            return null;
        }
        return new WaitState(call, window, peer, number, since);
    }

    /**
     * Records that the job is aborted with {@code status} (MPI_ABORT) and wakes its watchers. Only the
     * first abort counts.
     *
     * @return the status the job is aborted with: {@code status}, or that of an earlier abort.
     */
    public int abort(final int status) {
        final int word = ControlLayout.ABORT_FLAG | (status & 0xff);
        if (!Words.compareAndSetInt(segment, ControlLayout.ABORT_OFFSET, 0, word)) {
            return abortStatus();
        }
        WaitWords.wakeAll(segment, ControlLayout.ABORT_OFFSET);
        return status & 0xff;
    }

    /**
     * @return the status the job was aborted with, or -1 if it was not.
     */
    public int abortStatus() {
        final int word = Words.getIntVolatile(segment, ControlLayout.ABORT_OFFSET);
        return word == 0 ? -1 : word & 0xff;
    }

    /**
     * Blocks until the job is aborted and returns its status. For a watcher thread; it sleeps on the
     * abort word's futex.
     */
    public int awaitAbort(final WaitStrategy waitStrategy) {
        return waitStrategy.awaitInt(segment, ControlLayout.ABORT_OFFSET, word -> word != 0, Liveness.NONE) & 0xff;
    }

    public RankState state(final int rank) {
        checkRank(rank);
        return RankState.of(Words.getIntVolatile(segment, rowOffset(rank) + ControlLayout.ROW_STATE_OFFSET));
    }

    public long pid(final int rank) {
        checkRank(rank);
        return Words.getLongVolatile(segment, rowOffset(rank) + ControlLayout.ROW_PID_OFFSET);
    }

    /**
     * @return the job-wide barrier, for {@code rank}'s party, which waits with {@code waitStrategy}.
     */
    public DisseminationBarrier barrier(final int rank, final WaitStrategy waitStrategy, final Liveness liveness) {
        checkWhole("barrier");
        checkRank(rank);
        return new DisseminationBarrier(segment, ControlLayout.barrierOffset(ranks), ranks, rank, waitStrategy,
            liveness);
    }

    /**
     * @return the scratch slot of {@code rank}, {@link ControlLayout#SCRATCH_SLOT_LENGTH} bytes.
     */
    public MemorySegment scratch(final int rank) {
        checkRank(rank);
        return segment.asSlice(ControlLayout.scratchOffset(fileRanks, fileRank(rank)),
            ControlLayout.SCRATCH_SLOT_LENGTH);
    }

    /**
     * A liveness check of every rank but {@code self}.
     *
     * @param self             the checking rank (-1: none, e.g. the launcher).
     * @param leavingIsFailure whether a rank that left the job normally counts as failed (true for
     *                         collective waits, which can never complete without it).
     */
    public Liveness liveness(final int self, final boolean leavingIsFailure) {
        return () -> checkPeers(self, leavingIsFailure);
    }

    /**
     * Checks one rank.
     *
     * @throws PeerFailedException if it is dead, failed or (when leavingIsFailure) finished.
     */
    public void checkPeer(final int rank, final boolean leavingIsFailure) {
        checkRank(rank);
        final long row = rowOffset(rank);
        final RankState state = RankState.of(Words.getIntVolatile(segment, row + ControlLayout.ROW_STATE_OFFSET));
        switch (state) {
            case FAILED -> throw new PeerFailedException(fileRank(rank),
                "it failed, or its launcher or runner declared it failed");
            case ABORTED -> throw new PeerFailedException(fileRank(rank), "it stopped after another rank failed");
            case FINISHED -> {
                if (leavingIsFailure) {
                    throw new PeerFailedException(fileRank(rank), "it has already left the job");
                }
            }
            case JOINED -> {
                final long pid = Words.getLong(segment, row + ControlLayout.ROW_PID_OFFSET);
                final long started = Words.getLong(segment, row + ControlLayout.ROW_START_MILLIS_OFFSET);
                if (!isAlive(pid, started)) {
                    throw new PeerFailedException(fileRank(rank), "its process " + pid + " is gone");
                }
            }
            case ELSEWHERE -> {
                // Its own node's file follows it; its death ends the job through the job's launcher.
            }
            case EMPTY, JOINING -> {
                // Not joined yet: the launcher declares it failed if its process ends before joining, unless the
                // launcher itself is gone.
                if (launcherGone()) {
                    throw new PeerFailedException(fileRank(rank),
                        "it never joined and the job's launcher (process " + launcherPid() + ") is gone");
                }
            }
        }
    }

    /**
     * Whether {@code rank} can no longer store anything: it failed, aborted, or its process is gone.
     * A rank that left normally, or has not joined yet, is not dead.
     */
    public boolean isDead(final int rank) {
        checkRank(rank);
        final long row = rowOffset(rank);
        return switch (RankState.of(Words.getIntVolatile(segment, row + ControlLayout.ROW_STATE_OFFSET))) {
            case FAILED, ABORTED -> true;
            case JOINED -> !isAlive(Words.getLong(segment, row + ControlLayout.ROW_PID_OFFSET),
                Words.getLong(segment, row + ControlLayout.ROW_START_MILLIS_OFFSET));
            default -> false;
        };
    }

    /**
     * Whether the process that created the job is gone: not running, or its pid now belongs to a
     * process that started after the job was created.
     */
    public boolean launcherGone() {
        final long pid = launcherPid();
        if (pid == 0 || pid == ProcessHandle.current().pid()) {
            return false;
        }
        final ProcessHandle launcher = ProcessHandle.of(pid).orElse(null);
        if (launcher == null || !launcher.isAlive()) {
            return true;
        }
        final long started = startMillis(launcher);
        return started != 0 && started > Words.getLong(segment, ControlLayout.CREATED_MILLIS_OFFSET) + 1000;
    }

    private void checkPeers(final int self, final boolean leavingIsFailure) {
        if (self >= 0 && state(self) == RankState.FAILED) {
            throw new PeerFailedException(fileRank(self),
                "this rank was declared failed: its job was cancelled or stopped");
        }
        // NOTE: three passes, so that a rank declared failed is named ahead of ranks whose process is merely
        // gone (a survivor that exits after seeing the failure, without closing the job, looks like that),
        // and both ahead of ranks that only stopped or left because of it.
        for (int rank = 0; rank < ranks; rank++) {
            if (rank != self && state(rank) == RankState.FAILED) {
                checkPeer(rank, leavingIsFailure);
            }
        }
        for (int rank = 0; rank < ranks; rank++) {
            final RankState state = state(rank);
            if (rank != self && state != RankState.ABORTED && state != RankState.FINISHED) {
                checkPeer(rank, leavingIsFailure);
            }
        }
        for (int rank = 0; rank < ranks; rank++) {
            if (rank != self) {
                checkPeer(rank, leavingIsFailure);
            }
        }
    }

    private void setState(final int rank, final RankState state) {
        checkRank(rank);
        WaitWords.putIntVolatileAndWake(segment, rowOffset(rank) + ControlLayout.ROW_STATE_OFFSET, state.code());
    }

    private void checkRank(final int rank) {
        if (rank < 0 || rank >= ranks) {
            throw new IndexOutOfBoundsException("rank " + rank + " is outside 0.." + (ranks - 1));
        }
    }

    /**
     * Whether process {@code pid}, started at {@code startMillis}, still runs. A different start time
     * means the pid was reused by another process.
     */
    static boolean isAlive(final long pid, final long startMillis) {
        if (pid == ProcessHandle.current().pid()) {
            return true;
        }
        final ProcessHandle handle = ProcessHandle.of(pid).orElse(null);
        if (handle == null || !handle.isAlive()) {
            return false;
        }
        final long actualStart = startMillis(handle);
        return startMillis == 0 || actualStart == 0 || Math.abs(actualStart - startMillis) < 1000;
    }

    static long startMillis(final ProcessHandle handle) {
        return handle.info().startInstant().map(instant -> instant.toEpochMilli()).orElse(0L);
    }

    /**
     * Removes the file's name; every mapping of it stays valid.
     */
    public void unlink() {
        checkWhole("unlink");
        file.unlink();
    }

    /**
     * Unmaps the file (the file itself stays until its job directory is deleted); nothing for a
     * {@link #subset}, which shares the mapping of the file it was made from.
     */
    @Override
    public void close() {
        if (rows == null) {
            file.close();
        }
    }

    private void checkWhole(final String call) {
        if (rows != null) {
            throw new IllegalStateException(call + " of the whole control file on a subset of its rows");
        }
    }
}
