package org.rma4j;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * Regression tests of the races in notified access (lost wake-up in waitAny, short notified puts out of
 * program order, a monitor held while sleeping), at 2 and 4 ranks on the machine's cores, run by a subclass
 * per job mode. Every blocking call has a job-wide wait timeout, so a lost wake-up or a deadlock fails
 * the test with the call that hung instead of hanging it.
 */
@Timeout(600)
abstract class NotifyRaceContractTest {
    /** Wait timeout of every blocking call in these jobs: far above any legitimate wait. */
    static final long WAIT_TIMEOUT_MS = 20_000;

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    abstract void run(int ranks, String scenario) throws Exception;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldNeverSleepInWaitAnyOnACompleteRequest(final int ranks) throws Exception {
        run(ranks, "waitAnyPingPong");
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldWakeWaitAnyWhenAnotherThreadDrainsItsNotification(final int ranks) throws Exception {
        run(ranks, "waitAnyBesideDrainingThread");
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldApplyShortNotifiedPutsInProgramOrder(final int ranks) throws Exception {
        run(ranks, "programOrderOfShortNotifiedPuts");
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldSendIntoAFullRingWhileAnotherThreadOfTheRankWaits(final int ranks) throws Exception {
        run(ranks, "sendIntoFullRingWhileAnotherThreadAwaits");
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldSeeANotificationPublishedBetweenCheckAndWait(final int ranks) throws Exception {
        run(ranks, "publishBetweenCheckAndWait");
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldShareALaneBetweenThreadsOfOneRankKeepingEachThreadsOrder(final int ranks) throws Exception {
        run(ranks, "threadsOfOneRankShareALane");
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldWakeASenderAsleepOnAFullLaneAtEveryDrain(final int ranks) throws Exception {
        run(ranks, "senderAsleepOnAFullLane");
    }
}
