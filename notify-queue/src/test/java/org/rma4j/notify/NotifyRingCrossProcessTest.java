package org.rma4j.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.ShmTestDirectory;

/**
 * Producers in child JVMs ({@link RingChild}) offering into a ring in a file this test created, this JVM
 * consuming.
 */
@Timeout(value = 600, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NotifyRingCrossProcessTest {
    private static final int CAPACITY = 64;
    private static final int PRODUCERS = 2;
    private static final long OFFERS_PER_PRODUCER = 200_000;

    private RingFiles files;

    @BeforeEach
    void setUp() throws Exception {
        files = new RingFiles();
    }

    @AfterEach
    void tearDown() throws Exception {
        files.close();
    }

    @Test
    void shouldDeliverEveryOfferOfEveryProducerProcessOnceAndInOrder() throws Exception {
        final NotifyRing consumer = new NotifyRing(files.createRing("ring", CAPACITY), RingFiles.RING_OFFSET, CAPACITY,
            PRODUCERS);
        final List<Process> children = new ArrayList<>();
        final List<CompletableFuture<Process>> exits = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            final Process child = files.startChild("produce", files.path("ring").toString(), Integer.toString(CAPACITY),
                Integer.toString(p), Long.toString(OFFERS_PER_PRODUCER));
            children.add(child);
            exits.add(child.onExit());
        }

        final Traffic.Checker checker = NotifyRingConcurrencyTest.consume(consumer, PRODUCERS * OFFERS_PER_PRODUCER,
            exits);

        for (int p = 0; p < PRODUCERS; p++) {
            final Process child = children.get(p);
            assertTrue(child.waitFor(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS),
                "producer " + p + " runs on");
            assertEquals(0, child.exitValue(), "producer " + p + " failed: " + files.log(p));
            assertEquals(OFFERS_PER_PRODUCER, checker.receivedFrom(p), "received from producer process " + p);
        }
        assertEquals(PRODUCERS * OFFERS_PER_PRODUCER, consumer.producerIndex(), "claims");
        assertEquals(0, consumer.poll(n -> {
        }), "nothing left over");
    }
}
