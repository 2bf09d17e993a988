package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rma4j.test.ShmTestDirectory;

/**
 * The two-sided messaging contract ({@link Messaging}), run by a subclass per job mode. The timeout
 * only guards against hangs.
 */
@Timeout(600)
abstract class MessagingContractTest {
    protected ShmTestDirectory base;

    @BeforeEach
    void createBase() {
        base = new ShmTestDirectory();
    }

    @AfterEach
    void removeBase() {
        try {
            assertEquals(List.of(), base.entries(), "the job left files behind");
        } finally {
            base.close();
        }
    }

    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldPingPongEverySizeFromEmptyTo16MiBByteExact() throws Exception {
        run(2, "pingPong");
    }

    @Test
    void shouldReceiveEachSourcesMessagesInSendOrderUnderExactAndWildcardPatterns() throws Exception {
        run(4, "orderAndWildcards");
    }

    @Test
    void shouldKeepMessagesSentBeforeTheirReceivesAsUnexpected() throws Exception {
        run(3, "unexpectedMessages");
    }

    @Test
    void shouldReadLongMessagesFromNativeBuffersDirectlyInTheirReceivesOrder() throws Exception {
        run(2, "directRendezvous");
    }

    @Test
    void shouldReceiveArrivedMessagesInOrderWithBlockingReceives() throws Exception {
        run(2, "blockingReceivesOfArrivedMessages");
    }

    @Test
    void shouldCompleteBlockingReceivesThatWaitWithEachMessagesStatus() throws Exception {
        run(3, "blockingReceivesThatWait");
    }

    @Test
    void shouldCompleteNonblockingRequestsWithWaitAnyTestAndWaitAll() throws Exception {
        run(3, "nonblocking");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void shouldNotDeadlockWhenRanksSendLargeMessagesToEachOtherBlockingFirst(final int ranks) throws Exception {
        run(ranks, "exchangeLargeBlockingSendFirst");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void shouldTakeAFanInOfSmallMessagesInEachSourcesOrderAndServeAPollingReceiver(final int ranks) throws Exception {
        run(ranks, "fanInAndPollingReceiver");
    }

    @Test
    void shouldExchangeAllToAllOf64KiBAtEightRanksOnTwoCores() throws Exception {
        run(8, "allToAll");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 3, 4, 5})
    void shouldMatchSequentialReferenceInBarrierBcastReduceAndAllreduce(final int ranks) throws Exception {
        run(ranks, "collectives");
    }

    @Test
    void shouldRaiseErrorClassesAndStayUsableAfterMisuseAndTruncation() throws Exception {
        run(2, "errors");
    }

    @Test
    void shouldSleepWhileBlockedInRecv() throws Exception {
        run(3, "waitingSleeps");
    }
}
