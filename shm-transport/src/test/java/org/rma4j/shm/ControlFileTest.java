package org.rma4j.shm;

import org.rma4j.test.FutexSleepers;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.ShmTestDirectory;

@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ControlFileTest {
    private static final int RANKS = 4;
    /** A live process, so that ranks not joined yet are not judged orphaned by a dead launcher. */
    private static final long LAUNCHER_PID = ProcessHandle.current().pid();

    private ShmTestDirectory shm;
    private Path path;

    @BeforeEach
    void setUp() throws Exception {
        shm = new ShmTestDirectory();
        path = shm.path(JobDirectory.CONTROL_FILE_NAME);
    }

    @AfterEach
    void tearDown() throws Exception {
        shm.close();
    }

    private ControlFile create() {
        return shm.track(ControlFile.create(path, RANKS, LAUNCHER_PID));
    }

    private ControlFile open() {
        return shm.track(ControlFile.open(path));
    }

    @Test
    void shouldRoundTripJobSizeAndLauncherPidThroughCreateAndOpen() throws Exception {
        final ControlFile created = create();

        final ControlFile opened = open();

        assertEquals(RANKS, created.ranks());
        assertEquals(RANKS, opened.ranks());
        assertEquals(LAUNCHER_PID, opened.launcherPid());
        assertEquals(path, opened.path());
        assertEquals(ControlLayout.fileLength(RANKS), opened.segment().byteSize());
        assertEquals(ControlLayout.fileLength(RANKS), Files.size(path));
        for (int rank = 0; rank < RANKS; rank++) {
            assertEquals(RankState.EMPTY, opened.state(rank));
            assertEquals(0L, opened.pid(rank));
        }
    }

    @Test
    void shouldRecordCreationTimeAndPublishTheHeader() {
        final long before = System.currentTimeMillis();
        final ControlFile created = create();
        final MemorySegment segment = created.segment();

        final long createdMillis = Words.getLong(segment, ControlLayout.CREATED_MILLIS_OFFSET);
        final long after = System.currentTimeMillis();
        assertTrue(createdMillis >= before && createdMillis <= after, "created " + createdMillis);
        assertEquals(ControlLayout.MAGIC, Words.getLong(segment, FileHeader.MAGIC_OFFSET));
        assertEquals(ControlLayout.VERSION, Words.getInt(segment, FileHeader.VERSION_OFFSET));
        assertEquals(1, Words.getIntAcquire(segment, FileHeader.READY_OFFSET));
    }

    @Test
    void shouldRejectInvalidJobSizeWithoutCreatingAFile() {
        for (final int ranks : new int[] {0, -3, ControlLayout.MAX_RANKS + 1}) {
            final IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
                () -> ControlFile.create(path, ranks, 0));
            assertTrue(thrown.getMessage().contains("job size " + ranks), thrown.getMessage());
        }
        assertFalse(Files.exists(path, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void shouldRecordOwnPidAndJoinedStateOnJoin() {
        create();
        final ControlFile rank2 = open();

        rank2.join(2);

        final ControlFile observer = open();
        assertEquals(RankState.JOINED, observer.state(2));
        assertEquals(ProcessHandle.current().pid(), observer.pid(2));
        final long startMillis = Words.getLong(observer.segment(),
            ControlLayout.rowOffset(2) + ControlLayout.ROW_START_MILLIS_OFFSET);
        assertEquals(ControlFile.startMillis(ProcessHandle.current()), startMillis);
        assertEquals(RankState.EMPTY, observer.state(1), "other rows untouched");
        assertEquals(RankState.EMPTY, observer.state(3), "other rows untouched");
    }

    @Test
    void shouldRefuseToJoinTwice() {
        final ControlFile control = create();
        control.join(1);

        final IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> control.join(1));

        assertTrue(thrown.getMessage().contains("rank 1"), thrown.getMessage());
        assertTrue(thrown.getMessage().contains("JOINED"), thrown.getMessage());
        assertEquals(RankState.JOINED, control.state(1));
    }

    /**
     * Two participants that claim the same rank at the same time (a duplicated launch, a wrong rank
     * argument): exactly one join may succeed, as it does when they come one after the other.
     */
    @Test
    void shouldLetOnlyOneOfTwoConcurrentJoinsOfARankSucceed() throws Exception {
        final int ranks = 512;
        shm.track(ControlFile.create(path, ranks, LAUNCHER_PID));
        final AtomicIntegerArray joins = new AtomicIntegerArray(ranks);
        final CyclicBarrier together = new CyclicBarrier(2);
        final List<Future<Void>> claimants = new ArrayList<>();
        for (int c = 0; c < 2; c++) {
            final ControlFile mine = open();
            claimants.add(shm.submit(() -> {
                for (int rank = 0; rank < ranks; rank++) {
                    together.await(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    try {
                        mine.join(rank);
                        joins.incrementAndGet(rank);
                    } catch (final IllegalStateException e) {
                        // the other claimant was first
                    }
                }
                return null;
            }));
        }
        for (final Future<Void> claimant : claimants) {
            claimant.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }

        for (int rank = 0; rank < ranks; rank++) {
            assertEquals(1, joins.get(rank), "successful joins of rank " + rank);
        }
    }

    @Test
    void shouldRefuseToJoinAFinishedOrFailedRank() {
        final ControlFile control = create();
        control.markFinished(0);
        control.markFailed(1);

        assertThrows(IllegalStateException.class, () -> control.join(0));
        assertThrows(IllegalStateException.class, () -> control.join(1));
        assertEquals(0L, control.pid(0), "a refused join does not write the row");
    }

    @Test
    void shouldWakeAWaiterOnTheStateWordWhenARankJoins() throws Exception {
        final ControlFile control = create();
        final ControlFile joiner = open();
        final long stateWord = ControlLayout.rowOffset(3) + ControlLayout.ROW_STATE_OFFSET;
        final Future<Integer> waiter = shm.submit(() -> new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0)
            .awaitInt(control.segment(), stateWord, state -> state != RankState.EMPTY.code(), Liveness.NONE));
        FutexSleepers.await(control.segment(), stateWord, 1);
        final long recheckWakes = WaitStrategy.recheckWakes();

        joiner.join(3);

        assertEquals(RankState.JOINED.code(), waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(recheckWakes, WaitStrategy.recheckWakes(), "woken by join, not by the periodic re-check");
    }

    @Test
    void shouldWakeAWaiterOnTheStateWordWhenARankIsDeclaredFailedOrAborted() throws Exception {
        final ControlFile control = create();
        for (final int rank : new int[] {1, 2}) {
            final long stateWord = ControlLayout.rowOffset(rank) + ControlLayout.ROW_STATE_OFFSET;
            final Future<Integer> waiter = shm.submit(() -> new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0)
                .awaitInt(control.segment(), stateWord, state -> state != RankState.EMPTY.code(), Liveness.NONE));
            FutexSleepers.await(control.segment(), stateWord, 1);
            final long recheckWakes = WaitStrategy.recheckWakes();

            if (rank == 1) {
                control.markFailed(rank);
            } else {
                control.markAborted(rank);
            }

            final RankState expected = rank == 1 ? RankState.FAILED : RankState.ABORTED;
            assertEquals(expected.code(), waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
            assertEquals(recheckWakes, WaitStrategy.recheckWakes(), "woken by the state change, not the re-check");
        }
    }

    @Test
    void shouldTellDeadRanksFromLiveFinishedAndUnjoinedOnes() throws Exception {
        final ControlFile control = create();
        final Process finished = shm.startProcess("true");
        assertTrue(finished.waitFor(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        control.join(0);
        writeRow(control, 1, finished.pid(), 0L, RankState.JOINED);
        control.markAborted(2);

        assertFalse(control.isDead(0), "joined by this live process");
        assertTrue(control.isDead(1), "joined by a process that is gone");
        assertTrue(control.isDead(2), "aborted");
        assertFalse(control.isDead(3), "not joined yet");
        control.markFailed(3);
        assertTrue(control.isDead(3), "declared failed");
        control.markFinished(0);
        assertFalse(control.isDead(0), "left normally");
        assertThrows(IndexOutOfBoundsException.class, () -> control.isDead(RANKS));
    }

    @Test
    void shouldReportAnAbortedRankWithItsReason() {
        final ControlFile control = create();
        control.markAborted(1);

        final PeerFailedException thrown = assertThrows(PeerFailedException.class, () -> control.checkPeer(1, false));

        assertEquals(1, thrown.rank());
        assertTrue(thrown.getMessage().contains("stopped after another rank failed"), thrown.getMessage());
        control.markFailed(1);
        assertEquals(RankState.ABORTED, control.state(1), "an aborted rank stays aborted");
    }

    @Test
    void shouldReportAnUnjoinedRankOnlyOnceTheLauncherIsGone() throws Exception {
        final Process launcher = shm.startProcess("true");
        assertTrue(launcher.waitFor(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        final ControlFile orphaned = shm.track(ControlFile.create(path, RANKS, launcher.pid()));

        assertTrue(orphaned.launcherGone());
        final PeerFailedException thrown = assertThrows(PeerFailedException.class, () -> orphaned.checkPeer(2, false));
        assertEquals(2, thrown.rank());
        assertTrue(thrown.getMessage().contains("never joined"), thrown.getMessage());
        assertTrue(thrown.getMessage().contains(Long.toString(launcher.pid())), thrown.getMessage());
        assertFalse(orphaned.isDead(2), "not joined: not dead, only orphaned");
    }

    @Test
    void shouldNotJudgeTheLauncherGoneWhileItRunsOrIsThisProcess() throws Exception {
        assertFalse(create().launcherGone(), "this process");
        final Process launcher = shm.startProcess("sleep", "600");
        final Path other = shm.path("other-control");
        final ControlFile running = shm.track(ControlFile.create(other, RANKS, launcher.pid()));
        assertFalse(running.launcherGone(), "a launcher that started before the job was created");
        assertDoesNotThrow(() -> running.checkPeer(1, true));
        final ControlFile unknown = shm.track(ControlFile.create(shm.path("unknown-control"), RANKS, 0));
        assertFalse(unknown.launcherGone(), "no launcher recorded");
    }

    @Test
    void shouldNameAFailedRankAheadOfAGoneOneAndAGoneOneAheadOfAnAbortedOne() throws Exception {
        final ControlFile control = create();
        final Process finished = shm.startProcess("true");
        assertTrue(finished.waitFor(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        control.join(0);
        control.markAborted(1);
        writeRow(control, 2, finished.pid(), 0L, RankState.JOINED);
        assertEquals(2, assertThrows(PeerFailedException.class, () -> control.liveness(0, false).check()).rank(),
            "a gone rank is named ahead of an aborted one");

        control.markFailed(3);
        assertEquals(3, assertThrows(PeerFailedException.class, () -> control.liveness(0, false).check()).rank(),
            "a failed rank is named ahead of gone and aborted ones");
        assertEquals(3, assertThrows(PeerFailedException.class, () -> control.liveness(-1, false).check()).rank(),
            "also for the launcher (self = -1)");

        control.markFailed(0);
        final PeerFailedException self = assertThrows(PeerFailedException.class,
            () -> control.liveness(0, false).check());
        assertEquals(0, self.rank(), "a rank declared failed itself learns so first");
        assertTrue(self.getMessage().contains("this rank was declared failed"), self.getMessage());
    }

    @Test
    void shouldNameAnAbortedRankWhenNoOtherIsDeadAndAFinishedOneOnlyWhenLeavingIsFailure() {
        final ControlFile control = create();
        control.join(0);
        control.join(1);
        control.markFinished(2);
        assertDoesNotThrow(() -> control.liveness(0, false).check());
        assertEquals(2, assertThrows(PeerFailedException.class, () -> control.liveness(0, true).check()).rank());

        control.markAborted(3);
        assertEquals(3, assertThrows(PeerFailedException.class, () -> control.liveness(0, false).check()).rank());
        assertEquals(2, assertThrows(PeerFailedException.class, () -> control.liveness(0, true).check()).rank(),
            "in rank order once no rank failed or is gone");
    }

    @Test
    void shouldRecordFinishedAndFailedStates() {
        final ControlFile control = create();
        control.join(0);
        control.join(1);

        control.markFinished(0);
        control.markFailed(1);
        control.markFailed(2);

        final ControlFile observer = open();
        assertEquals(RankState.FINISHED, observer.state(0));
        assertEquals(RankState.FAILED, observer.state(1));
        assertEquals(RankState.FAILED, observer.state(2), "a rank that never joined can be declared failed");
        assertEquals(RankState.EMPTY, observer.state(3));
    }

    @Test
    void shouldPassLivenessWhileEveryRankIsEmptyOrJoinedByALiveProcess() {
        final ControlFile control = create();
        control.join(0);
        control.join(1);

        assertDoesNotThrow(() -> control.liveness(0, true).check());
        assertDoesNotThrow(() -> control.liveness(-1, true).check());
    }

    @Test
    void shouldCountARankElsewhereAsAliveAndRefuseToJoinIt() {
        final ControlFile control = create();
        control.join(0);
        control.markElsewhere(2);

        assertEquals(RankState.ELSEWHERE, control.state(2));
        assertFalse(control.isDead(2));
        assertDoesNotThrow(() -> control.liveness(0, true).check());
        assertDoesNotThrow(() -> control.checkPeer(2, true));
        assertThrows(IllegalStateException.class, () -> control.join(2));
        assertThrows(IllegalStateException.class, () -> control.markElsewhere(0), "a joined row stays joined");
    }

    @Test
    void shouldReportFailedRankByName() {
        final ControlFile control = create();
        control.markFailed(2);

        final PeerFailedException thrown = assertThrows(PeerFailedException.class,
            () -> control.liveness(0, false).check());

        assertEquals(2, thrown.rank());
        assertTrue(thrown.getMessage().contains("rank 2"), thrown.getMessage());
    }

    @Test
    void shouldNotReportTheCheckingRankItselfUnlessItWasDeclaredFailed() {
        final ControlFile control = create();
        control.markFinished(2);

        assertDoesNotThrow(() -> control.liveness(2, true).check());
        assertThrows(PeerFailedException.class, () -> control.liveness(3, true).check());

        // A rank declared failed (its job cancelled) fails its own waits.
        control.markFailed(3);
        final PeerFailedException thrown = assertThrows(PeerFailedException.class,
            () -> control.liveness(3, false).check());
        assertEquals(3, thrown.rank());
    }

    @Test
    void shouldReportFinishedRankOnlyWhenLeavingIsFailure() {
        final ControlFile control = create();
        control.join(0);
        control.join(3);
        control.markFinished(3);

        assertDoesNotThrow(() -> control.liveness(0, false).check());
        final PeerFailedException thrown = assertThrows(PeerFailedException.class,
            () -> control.liveness(0, true).check());

        assertEquals(3, thrown.rank());
        assertTrue(thrown.getMessage().contains("rank 3"), thrown.getMessage());
    }

    @Test
    void shouldReportJoinedRankWhoseProcessIsGone() throws Exception {
        final ControlFile control = create();
        final Process finished = shm.startProcess("true");
        assertTrue(finished.waitFor(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        final long deadPid = finished.pid();
        writeRow(control, 1, deadPid, 0L, RankState.JOINED);

        final PeerFailedException thrown = assertThrows(PeerFailedException.class,
            () -> control.liveness(0, false).check());

        assertEquals(1, thrown.rank());
        assertTrue(thrown.getMessage().contains("rank 1"), thrown.getMessage());
        assertTrue(thrown.getMessage().contains(Long.toString(deadPid)), thrown.getMessage());
    }

    @Test
    void shouldAcceptJoinedRankWhoseProcessRunsSinceItJoined() throws Exception {
        final ControlFile control = create();
        final Process sleeper = shm.startProcess("sleep", "600");
        final long started = ControlFile.startMillis(sleeper.toHandle());
        writeRow(control, 1, sleeper.pid(), started, RankState.JOINED);

        assertDoesNotThrow(() -> control.checkPeer(1, true));
    }

    @Test
    void shouldReportJoinedRankWhosePidWasReusedByAnotherProcess() throws Exception {
        final ControlFile control = create();
        final Process sleeper = shm.startProcess("sleep", "600");
        final long started = ControlFile.startMillis(sleeper.toHandle());
        // The row's process started an hour before the one that holds its pid now.
        writeRow(control, 1, sleeper.pid(), started - TimeUnit.HOURS.toMillis(1), RankState.JOINED);

        final PeerFailedException thrown = assertThrows(PeerFailedException.class, () -> control.checkPeer(1, false));

        assertEquals(1, thrown.rank());
        assertTrue(thrown.getMessage().contains(Long.toString(sleeper.pid())), thrown.getMessage());
    }

    @Test
    void shouldTreatAnUnknownStateCodeAsFailed() {
        final ControlFile control = create();
        Words.putIntVolatile(control.segment(), ControlLayout.rowOffset(2) + ControlLayout.ROW_STATE_OFFSET, 17);

        assertEquals(RankState.FAILED, control.state(2));
        assertEquals(2, assertThrows(PeerFailedException.class, () -> control.checkPeer(2, false)).rank());
    }

    @Test
    void shouldRejectOutOfRangeRanks() {
        final ControlFile control = create();

        for (final int rank : new int[] {-1, RANKS}) {
            assertThrows(IndexOutOfBoundsException.class, () -> control.join(rank));
            assertThrows(IndexOutOfBoundsException.class, () -> control.state(rank));
            assertThrows(IndexOutOfBoundsException.class, () -> control.pid(rank));
            assertThrows(IndexOutOfBoundsException.class, () -> control.markFailed(rank));
            assertThrows(IndexOutOfBoundsException.class, () -> control.markFinished(rank));
            assertThrows(IndexOutOfBoundsException.class, () -> control.scratch(rank));
        }
    }

    /**
     * Rank {@code ranks} lies past the rank table: checkPeer reads rank 0's scratch slot as a row and
     * reports a failure of a rank that does not exist (or, for -1, reads the barrier's padding).
     */
    @Test
    void shouldRejectOutOfRangeRankInCheckPeer() {
        final ControlFile control = create();
        Words.putInt(control.scratch(0), ControlLayout.ROW_STATE_OFFSET, RankState.FAILED.code());

        assertThrows(IndexOutOfBoundsException.class, () -> control.checkPeer(RANKS, false));
        assertThrows(IndexOutOfBoundsException.class, () -> control.checkPeer(-1, false));
    }

    @Test
    void shouldRejectBadJobSizeInHeaderOnOpen() {
        for (final int ranks : new int[] {0, -1, ControlLayout.MAX_RANKS + 1}) {
            try (ControlFile control = ControlFile.create(path, RANKS, LAUNCHER_PID)) {
                Words.putInt(control.segment(), ControlLayout.RANKS_OFFSET, ranks);
            }

            final ShmFormatException thrown = assertThrows(ShmFormatException.class, () -> ControlFile.open(path));

            assertTrue(thrown.getMessage().contains(path.toString()), thrown.getMessage());
            assertTrue(thrown.getMessage().contains("job size " + ranks), thrown.getMessage());
            assertDoesNotThrow(() -> Files.delete(path));
        }
    }

    @Test
    void shouldReadBackEveryJobFieldTheCreatorWrote() {
        final ControlFile created = create();
        final MemorySegment segment = created.segment();

        assertEquals(RANKS, Words.getInt(segment, ControlLayout.RANKS_OFFSET));
        assertEquals(ControlLayout.ROW_LENGTH, Words.getInt(segment, ControlLayout.ROW_LENGTH_FIELD_OFFSET));
        assertEquals(ControlLayout.SCRATCH_SLOT_LENGTH,
            Words.getInt(segment, ControlLayout.SCRATCH_SLOT_LENGTH_FIELD_OFFSET));
        assertEquals(LAUNCHER_PID, Words.getLong(segment, ControlLayout.LAUNCHER_PID_OFFSET));
        assertTrue(Words.getLong(segment, ControlLayout.CREATED_MILLIS_OFFSET) > 0);
        assertEquals(RANKS, ControlLayout.checkJobFields(segment, path));
    }

    @Test
    void shouldRejectAWrongRowLengthOnOpenNamingFileFieldExpectedAndFound() {
        assertCorruptedIntRejected(ControlLayout.ROW_LENGTH_FIELD_OFFSET, 64,
            "row length 64 is not the expected " + ControlLayout.ROW_LENGTH);
    }

    @Test
    void shouldRejectAWrongScratchSlotLengthOnOpenNamingFileFieldExpectedAndFound() {
        assertCorruptedIntRejected(ControlLayout.SCRATCH_SLOT_LENGTH_FIELD_OFFSET, 4096,
            "scratch slot length 4096 is not the expected " + ControlLayout.SCRATCH_SLOT_LENGTH);
    }

    @Test
    void shouldRejectANegativeLauncherPidOnOpen() {
        assertCorruptedLongRejected(ControlLayout.LAUNCHER_PID_OFFSET, -7, "launcher pid -7 is negative");
    }

    @Test
    void shouldRejectAMissingCreationTimeOnOpen() {
        assertCorruptedLongRejected(ControlLayout.CREATED_MILLIS_OFFSET, 0, "creation time 0 is not a time");
    }

    @Test
    void shouldRejectAControlFileOfAnotherLayoutVersionOnOpen() {
        try (ControlFile control = ControlFile.create(path, RANKS, LAUNCHER_PID)) {
            Words.putInt(control.segment(), FileHeader.VERSION_OFFSET, ControlLayout.VERSION - 1);
        }

        final ShmFormatException thrown = assertThrows(ShmFormatException.class, () -> ControlFile.open(path));

        assertMessageNames(thrown,
            "layout version " + (ControlLayout.VERSION - 1) + " is not the supported " + ControlLayout.VERSION);
    }

    private void assertCorruptedIntRejected(final long offset, final int value, final String expected) {
        try (ControlFile control = ControlFile.create(path, RANKS, LAUNCHER_PID)) {
            Words.putInt(control.segment(), offset, value);
        }

        assertMessageNames(assertThrows(ShmFormatException.class, () -> ControlFile.open(path)), expected);
    }

    private void assertCorruptedLongRejected(final long offset, final long value, final String expected) {
        try (ControlFile control = ControlFile.create(path, RANKS, LAUNCHER_PID)) {
            Words.putLong(control.segment(), offset, value);
        }

        assertMessageNames(assertThrows(ShmFormatException.class, () -> ControlFile.open(path)), expected);
    }

    private void assertMessageNames(final ShmFormatException thrown, final String problem) {
        assertTrue(thrown.getMessage().contains(path.toString()), thrown.getMessage());
        assertTrue(thrown.getMessage().contains(problem), thrown.getMessage());
    }

    @Test
    void shouldRejectJobSizeThatDoesNotFitTheFileOnOpen() {
        try (ControlFile control = ControlFile.create(path, RANKS, LAUNCHER_PID)) {
            Words.putInt(control.segment(), ControlLayout.RANKS_OFFSET, RANKS + 1);
        }

        final ShmFormatException thrown = assertThrows(ShmFormatException.class, () -> ControlFile.open(path));

        assertTrue(thrown.getMessage().contains(path.toString()), thrown.getMessage());
        assertTrue(thrown.getMessage().contains("size " + ControlLayout.fileLength(RANKS)), thrown.getMessage());
        assertTrue(thrown.getMessage().contains((RANKS + 1) + " ranks"), thrown.getMessage());
    }

    @Test
    void shouldRejectFileOfAnotherKindOnOpen() {
        final MappedFile other = ShmFiles.create(shm, JobDirectory.CONTROL_FILE_NAME, ControlLayout.fileLength(RANKS));
        FileHeader.publish(other.segment(), 0x0BADL, ControlLayout.VERSION);

        final ShmFormatException thrown = assertThrows(ShmFormatException.class, () -> ControlFile.open(path));

        assertTrue(thrown.getMessage().contains("magic"), thrown.getMessage());
    }

    @Test
    void shouldRejectControlFileThatWasNeverPublishedOnOpen() {
        ShmFiles.create(shm, JobDirectory.CONTROL_FILE_NAME, ControlLayout.fileLength(RANKS));

        final ShmFormatException thrown = assertThrows(ShmFormatException.class, () -> ControlFile.open(path));

        assertTrue(thrown.getMessage().contains(path.toString()), thrown.getMessage());
    }

    @Test
    void shouldRefuseToCreateOverAnExistingControlFile() {
        create();

        assertThrows(RuntimeException.class, () -> ControlFile.create(path, RANKS, 1L));

        assertEquals(LAUNCHER_PID, open().launcherPid(), "the existing file is untouched");
    }

    @Test
    void shouldGiveEveryRankADisjointScratchSlot() {
        final ControlFile control = create();
        for (int rank = 0; rank < RANKS; rank++) {
            final MemorySegment slot = control.scratch(rank);
            assertEquals(ControlLayout.SCRATCH_SLOT_LENGTH, slot.byteSize());
            slot.fill((byte)(rank + 1));
        }

        final ControlFile observer = open();
        for (int rank = 0; rank < RANKS; rank++) {
            final MemorySegment slot = observer.scratch(rank);
            final byte expected = (byte)(rank + 1);
            for (long i = 0; i < slot.byteSize(); i++) {
                assertEquals(expected, slot.get(ValueLayout.JAVA_BYTE, i),
                    "byte " + i + " of rank " + rank + "'s slot");
            }
            assertEquals(RankState.EMPTY, observer.state(rank), "the scratch slots do not overlap the rank table");
        }
        final long barrier = ControlLayout.barrierOffset(RANKS);
        for (long i = barrier; i < ControlLayout.fileLength(RANKS); i++) {
            assertEquals(0, observer.segment().get(ValueLayout.JAVA_BYTE, i), "nor the barrier's byte " + i);
        }
    }

    @Test
    void shouldSynchronizeAllRanksThroughTheJobBarrier() throws Exception {
        final ControlFile launcher = create();
        final Future<?>[] ranks = new Future<?>[RANKS];
        for (int r = 0; r < RANKS; r++) {
            final int rank = r;
            final ControlFile mine = open();
            ranks[r] = shm.submit(() -> {
                mine.join(rank);
                final DisseminationBarrier barrier = mine.barrier(rank, WaitStrategy.defaultStrategy(),
                    mine.liveness(rank, true));
                assertEquals(RANKS, barrier.parties());
                barrier.await();
                // Every rank joined before anyone passed the barrier.
                for (int other = 0; other < RANKS; other++) {
                    assertEquals(RankState.JOINED, mine.state(other));
                }
                barrier.await();
                return null;
            });
        }
        for (final Future<?> rank : ranks) {
            rank.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }

        assertEquals(2, BarrierProbe.completed(launcher.segment(), ControlLayout.barrierOffset(RANKS), RANKS));
    }

    @Test
    void shouldTolerateASecondClose() {
        final ControlFile control = ControlFile.create(path, RANKS, LAUNCHER_PID);
        final MemorySegment segment = control.segment();

        control.close();
        control.close();

        assertFalse(segment.scope().isAlive());
        assertTrue(Files.exists(path), "closing does not remove the file");
    }

    @Test
    void shouldConsiderOwnProcessAliveWhateverItsRecordedStartTime() {
        assertTrue(ControlFile.isAlive(ProcessHandle.current().pid(), 1L));
    }

    private static void writeRow(final ControlFile control, final int rank, final long pid, final long startMillis,
        final RankState state) {
        final MemorySegment segment = control.segment();
        final long row = ControlLayout.rowOffset(rank);
        Words.putLong(segment, row + ControlLayout.ROW_PID_OFFSET, pid);
        Words.putLong(segment, row + ControlLayout.ROW_START_MILLIS_OFFSET, startMillis);
        Words.putIntVolatile(segment, row + ControlLayout.ROW_STATE_OFFSET, state.code());
    }

    @Test
    void shouldReportARankThatNeverJoinedOnceTheLauncherIsGone() throws Exception {
        final Process launcher = new ProcessBuilder("true").start();
        launcher.waitFor();
        final ControlFile control = shm.track(ControlFile.create(path, 2, launcher.pid()));
        control.join(0);

        final PeerFailedException thrown = assertThrows(PeerFailedException.class,
            () -> control.liveness(0, false).check());
        assertEquals(1, thrown.rank());
        assertTrue(thrown.getMessage().contains("launcher"), thrown.getMessage());
    }

    @Test
    void shouldCheckOnlyTheRanksOfASubsetAndNameFailuresByTheFilesRank() {
        final ControlFile control = create();
        for (int rank = 0; rank < RANKS; rank++) {
            control.join(rank);
        }
        final ControlFile subset = control.subset(new int[] {3, 1});
        control.markFailed(0);

        assertEquals(2, subset.ranks());
        assertEquals(3, subset.fileRank(0));
        assertDoesNotThrow(() -> subset.liveness(0, true).check(), "rank 0 of the file is not in the subset");
        assertFalse(subset.isDead(1));

        control.markFailed(1);
        final PeerFailedException thrown = assertThrows(PeerFailedException.class,
            () -> subset.liveness(0, true).check());
        assertEquals(1, thrown.rank(), "named by its rank in the file, not in the subset");
        assertTrue(subset.isDead(1));
        assertEquals(RankState.FAILED, subset.state(1));
    }

    @Test
    void shouldPublishWaitStatesOfASubsetInTheFilesRows() {
        final ControlFile control = create();
        final ControlFile subset = control.subset(new int[] {2, 0});
        final WaitState wait = new WaitState(WaitState.Call.GATHER, -1, -1, 7, 1234L);

        subset.publishWait(0, wait);

        assertEquals(wait, control.waitState(2));
        assertEquals(null, control.waitState(0));
        subset.clearWait(0);
        assertEquals(null, control.waitState(2));
    }

    @Test
    void shouldRefuseBadSubsetsAndWholeFileCallsOnASubset() {
        final ControlFile control = create();

        assertThrows(IllegalArgumentException.class, () -> control.subset(new int[0]));
        assertThrows(IllegalArgumentException.class, () -> control.subset(new int[] {1, 1}));
        assertThrows(IllegalArgumentException.class, () -> control.subset(new int[] {RANKS}));
        final ControlFile subset = control.subset(new int[] {1});
        assertThrows(IndexOutOfBoundsException.class, () -> subset.state(1));
        assertThrows(IllegalStateException.class, subset::unlink);
        subset.close();
        assertEquals(RankState.EMPTY, control.state(0), "closing a subset leaves the mapping alone");
    }
}
