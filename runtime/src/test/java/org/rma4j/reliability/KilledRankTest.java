package org.rma4j.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A rank killed with SIGKILL at a chosen point of the protocol ({@link FaultMain}): every surviving rank's
 * blocking call ends with PeerFailedException naming the dead rank, the launcher reports the rank and
 * exits non-zero, and the job leaves no file.
 *
 * <p>The time from the kill to the survivor's detection is printed, never asserted. Not covered: a rank
 * killed between claiming and publishing a notification slot, which needs a hook between the two steps
 * of {@code NotifyRing.offer} that the public API does not have (the ring's own tests cover it).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KilledRankTest {
    private static final String KILLED = "rank 1 exited with status 137, killed by signal 9 (SIGKILL)";
    /**
     * Time the survivors get before the launcher stops them: long, so that what is asserted is their own
     * detection even on a loaded machine (the measured times are printed).
     */
    private static final Duration GRACE = Duration.ofSeconds(5);

    @RegisterExtension
    final ShmBase base = new ShmBase();

    @Test
    void shouldFailLockWaitersWhenTheHolderOfTheExclusiveLockIsKilled() throws Exception {
        final Jobs.Outcome outcome = Jobs.run(base.path(), 3, GRACE, FaultMain.class, "lock");
        assertSurvivorsDetected(outcome, "lock", List.of(0, 2), "lock(EXCLUSIVE,0)", "lock(SHARED,0)");
    }

    @Test
    void shouldFailFenceWhenARankIsKilledInsteadOfEnteringIt() throws Exception {
        final Jobs.Outcome outcome = Jobs.run(base.path(), 3, GRACE, FaultMain.class, "fence");
        assertSurvivorsDetected(outcome, "fence", List.of(0, 2), "fence", "fence");
    }

    @Test
    void shouldFailTheTargetsWaitWhenAnOriginIsKilledBetweenStartAndComplete() throws Exception {
        final Jobs.Outcome outcome = Jobs.run(base.path(), 3, GRACE, FaultMain.class, "pscw");
        assertSurvivorsDetected(outcome, "pscw", List.of(0, 2), "wait", "barrier");
    }

    @Test
    void shouldFailStartWhenTheTargetIsKilledBeforePosting() throws Exception {
        final Jobs.Outcome outcome = Jobs.run(base.path(), 2, GRACE, FaultMain.class, "pscw-post");
        assertSurvivorsDetected(outcome, "pscw-post", List.of(0), "start");
    }

    @Test
    void shouldDeliverEveryPublishedNotificationThenFailWhenTheRankFloodingAFullRingIsKilled() throws Exception {
        final Jobs.Outcome outcome = Jobs.run(base.path(), 2, GRACE, FaultMain.class, "ring");
        assertSurvivorsDetected(outcome, "ring", List.of(0), "barrier");
        final List<String> drained = outcome.lines(0, "DRAINED ");
        assertEquals(1, drained.size(), outcome::describe);
        final String line = drained.getFirst();
        System.out.println("ring: " + line);
        assertEquals(Jobs.Outcome.field(line, "offered"), Jobs.Outcome.field(line, "received"),
            "notifications published before the kill must all arrive:\n" + outcome.describe());
        assertTrue(Integer.parseInt(Jobs.Outcome.field(line, "received")) >= 4,
            "the 4-entry ring was full when the flooding rank died:\n" + outcome.describe());
        assertEquals("1", Jobs.Outcome.field(line, "rank"), outcome::describe);
    }

    @Test
    void shouldFailWindowCreationWhenARankIsKilledBeforeJoiningIt() throws Exception {
        final Jobs.Outcome outcome = Jobs.run(base.path(), 3, GRACE, FaultMain.class, "create");
        assertSurvivorsDetected(outcome, "create", List.of(0, 2), "allocateShared", "allocateShared");
    }

    @Test
    void shouldForwardTheLinesARankPrintsWhileTheLauncherStopsIt() throws Exception {
        final Jobs.Outcome outcome = Jobs.run(base.path(), 2, Duration.ofMillis(200), FaultMain.class, "linger");
        assertEquals(3, outcome.result().exitCode(), outcome::describe);
        assertEquals(128 + 15, outcome.result().exitCode(0), outcome::describe);
        assertEquals(1, outcome.lines(0, "LINGERING").size(), outcome::describe);
        assertEquals(1, outcome.lines(0, "STOPPING").size(), outcome::describe);
    }

    /**
     * Asserts the launcher's report, each survivor's detection in the expected call, and that no file is
     * left; prints the detection times.
     */
    private void assertSurvivorsDetected(
        final Jobs.Outcome outcome, final String mode, final List<Integer> survivors, final String... calls) {
        final String context = outcome.describe();
        assertEquals(137, outcome.result().exitCode(), context);
        assertEquals(137, outcome.result().exitCode(FaultMain.VICTIM), context);
        assertEquals(FaultMain.VICTIM, outcome.result().failedRank(), context);
        assertTrue(outcome.result().failureMessage().orElseThrow().contains(KILLED), context);
        assertTrue(outcome.errContains("rmarun: " + KILLED), context);
        for (int i = 0; i < survivors.size(); i++) {
            final int survivor = survivors.get(i);
            final List<String> detected = outcome.lines(survivor, "DETECTED ");
            assertEquals(1, detected.size(), () -> "rank " + survivor + " did not report one detection:\n" + context);
            final String line = detected.getFirst();
            System.out.println(mode + ": rank " + survivor + " detected the kill after "
                + Jobs.Outcome.field(line, "ms") + " ms in " + Jobs.Outcome.field(line, "call"));
            assertEquals("1", Jobs.Outcome.field(line, "rank"), context);
            assertEquals(calls[i], Jobs.Outcome.field(line, "call"), context);
            assertTrue(line.contains("message=rank 1 failed: "), context);
            assertEquals(1, outcome.lines(survivor, "CLOSED ").size(), () -> "leaving the job hung:\n" + context);
            assertEquals(0, outcome.result().exitCode(survivor), context);
        }
        assertFalse(Files.exists(outcome.result().jobDirectory()), context);
        base.assertEmpty("by the job " + mode);
    }
}
