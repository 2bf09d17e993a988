package org.rma4j;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * The notified-access contract, run by a subclass per job mode.
 */
@Timeout(300)
abstract class NotifyContractTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldMatchInArrivalOrderWithWildcardsCountsAndUnexpectedQueue() throws Exception {
        run(4, "matching");
    }

    @Test
    void shouldDeliverInlineAndNonInlinePutsAndNotifyGets() throws Exception {
        run(3, "transfers");
    }

    @Test
    void shouldNotifyGetAccumulateCompareAndSwapAndRequestBasedCallsWithoutAnEpoch() throws Exception {
        run(4, "variants");
    }

    @Test
    void shouldWaitOverRmaNotificationAndMessageRequestsInOneCall() throws Exception {
        run(4, "mixedWaits");
    }

    @Test
    void shouldHandOutTheDataOfShortPutsFromTheNotification() throws Exception {
        run(2, "inlineData");
    }

    @Test
    void shouldPutNotifyPartsOfLongAndDoubleArrays() throws Exception {
        run(2, "arrayPuts");
    }

    @Test
    void shouldProbeNotificationsWithoutTakingThem() throws Exception {
        run(3, "probe");
    }

    @Test
    void shouldRaiseErrorClassesOfNotifiedAccess() throws Exception {
        run(2, "errors");
    }

    @Test
    void shouldFinishWhenTwoRanksFloodEachOthersSmallLanes() throws Exception {
        run(2, "flood");
    }

    @Test
    @Tag("soak")
    void shouldLoseAndDuplicateNothingFromThreeProducers() throws Exception {
        run(4, "soak");
    }

    @Test
    void shouldPassTokenAroundEightRanksAndSleepWhileWaiting() throws Exception {
        run(8, "tokenRing");
    }
}
