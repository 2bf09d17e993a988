package org.rma4j.examples.notified;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rma4j.Rma;
import org.rma4j.examples.ProcessJob;
import org.rma4j.examples.notified.PingPong.Measurement;

/**
 * {@link PingPong}: every variant echoes every payload intact, in thread mode with 2 and 3 ranks (rank
 * 2 standing by), and the notified variant as a job of two processes.
 */
class PingPongTest {
    /** Inline notified puts (8, 16 B), copied ones, and one longer than Messaging's eager limit. */
    private static final long[] SIZES = {8, 16, 64, 4096, 256 * 1024};

    private ProcessJob processes;

    @AfterEach
    void removeBaseDirectory() {
        if (processes != null) {
            processes.close();
        }
    }

    static Stream<Arguments> variantsAndRanks() {
        return PingPong.VARIANTS.stream().flatMap(sync -> Stream.of(Arguments.of(sync, 2), Arguments.of(sync, 3)));
    }

    @ParameterizedTest(name = "{0} with {1} ranks")
    @MethodSource("variantsAndRanks")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyEchoMatchesItsPing(final Sync sync, final int ranks) {
        final List<List<Measurement>> results = Rma.callThreads(ranks, job -> PingPong.run(job, sync, 20, SIZES));
        final List<Measurement> measurements = results.getFirst();
        assertEquals(SIZES.length, measurements.size());
        for (int i = 0; i < SIZES.length; i++) {
            final Measurement measurement = measurements.get(i);
            assertEquals(sync, measurement.sync());
            assertEquals(SIZES[i], measurement.sizeBytes());
            assertEquals(0, measurement.errors(), measurement::line);
            assertTrue(measurement.medianHalfRoundTripNs() > 0, measurement::line);
        }
        for (int rank = 1; rank < ranks; rank++) {
            assertTrue(results.get(rank).isEmpty(), "rank " + rank);
        }
    }

    @Test
    void aPayloadOfAnotherRoundDoesNotMatch() {
        final MemorySegment payload = MemorySegment.ofArray(new long[16]);
        PingPong.fill(payload, 7);
        assertTrue(PingPong.matches(payload, 7));
        assertFalse(PingPong.matches(payload, 6));
        payload.setAtIndex(JAVA_LONG, 15, payload.getAtIndex(JAVA_LONG, 15) + 1);
        assertFalse(PingPong.matches(payload, 7));
    }

    @Test
    void aJobOfOneRankIsRejected() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Rma.callThreads(1, job -> PingPong.run(job, Sync.NOTIFIED, 1, 8)));
        assertTrue(e.getMessage().contains("at least 2 ranks"), e.getMessage());
    }

    @Test
    void sizeLabelsUseBinaryUnits() {
        assertEquals("8 B", PingPong.sizeLabel(8));
        assertEquals("4 KiB", PingPong.sizeLabel(4096));
        assertEquals("1 MiB", PingPong.sizeLabel(1 << 20));
        assertEquals("1536 B", PingPong.sizeLabel(1536));
    }

    @Test
    void sizesRunFromEightBytesToOneMebibyte() {
        assertEquals(8, PingPong.SIZES[0]);
        assertEquals(1 << 20, PingPong.SIZES[PingPong.SIZES.length - 1]);
    }

    @Test
    void linesNameVariantSizeAndOutcome() {
        assertEquals("pingpong notified: 64 B, 1000 iterations, median half round trip 0.612 us, payloads VERIFIED",
            new Measurement(Sync.NOTIFIED, 64, 1000, 612, 700, 0).line());
        assertEquals(
            "pingpong fence: 1 MiB, 10 iterations, median half round trip 12.000 us, payloads FAILED (2 wrong)",
            new Measurement(Sync.FENCE, 1 << 20, 10, 12_000, 13_000, 2).line());
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void twoProcessesPrintVerifiedLinesForEverySize() throws InterruptedException {
        processes = new ProcessJob();
        final ProcessJob.Outcome outcome = processes.run(2, PingPong.class, "notified", "20");
        assertEquals(0, outcome.result().exitCode(), outcome::transcript);
        for (final long size : PingPong.SIZES) {
            assertTrue(outcome.lines().stream()
                .anyMatch(line -> line.startsWith(
                    "[0] pingpong notified: " + PingPong.sizeLabel(size) + ", 20 iterations, median half round trip ")
                    && line.endsWith(" us, payloads VERIFIED")),
                outcome::transcript);
        }
        assertTrue(
            outcome.lines().contains("[0] pingpong: 2 ranks, 1 variant x 10 sizes, 20 iterations each: VERIFIED"),
            outcome::transcript);
    }
}
