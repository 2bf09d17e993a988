package org.rma4j.bench.harness;

import org.rma4j.messaging.Messaging;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java scenario runs as two real rank JVMs through the launcher, with tiny counts (2 ranks x 100
 * round trips), and yields one measurement per row and size. No timing is asserted.
 */
class JavaRunnerTest {
    private static final long[] SIZES = {8, 1024};
    private static final int ITERATIONS = 100;

    @TempDir
    Path work;

    private List<Measurement> run(final RankMain.Scenario scenario) throws InterruptedException {
        return new JavaRunner(work, JavaRunner.DEFAULT_JVM_OPTIONS, line -> {
        }).run(scenario, SIZES, ITERATIONS, 20, 3);
    }

    private static Set<String> keys(final List<Measurement> measurements) {
        return measurements.stream().map(m -> m.impl() + " " + m.row() + " " + m.sizeBytes())
            .collect(Collectors.toSet());
    }

    @Test
    void shouldPingPongOverTheFloorWithoutRma4j() throws InterruptedException {
        final List<Measurement> measurements = run(RankMain.Scenario.FLOOR);
        assertEquals(Set.of("java-ffm floor 8", "java-ffm floor 1024"), keys(measurements));
        measurements.forEach(m -> assertEquals(ITERATIONS, m.count()));
    }

    @Test
    void shouldPingPongThroughTheNotificationLanesAlone() throws InterruptedException {
        // 8 B travels inside the entry, 1 KiB through the partner's data box; by hand, then through the classes
        // (stamp-polled lanes, then lanes polling the summary).
        final List<Measurement> measurements = run(RankMain.Scenario.NOTIFY_LANES);
        assertEquals(
            Set.of("rma4j lane-protocol 8", "rma4j lane-protocol 1024", "rma4j notify-lanes 8",
                "rma4j notify-lanes 1024", "rma4j notify-lanes-summary 8", "rma4j notify-lanes-summary 1024"),
            keys(measurements));
        measurements.forEach(m -> assertEquals(ITERATIONS, m.count(), m.toString()));
    }

    @Test
    void shouldRunEveryPingPongRowOfRma4j() throws InterruptedException {
        for (final RankMain.Scenario scenario : List.of(RankMain.Scenario.NOTIFIED_PUT, RankMain.Scenario.COUNTER_PUT,
            RankMain.Scenario.PUT_FLUSH_FLAG, RankMain.Scenario.LOAD_STORE, RankMain.Scenario.PSCW,
            RankMain.Scenario.FENCE)) {
            final List<Measurement> measurements = run(scenario);
            assertEquals(Set.of("rma4j " + scenario.id + " 8", "rma4j " + scenario.id + " 1024"), keys(measurements));
            measurements.forEach(m -> assertEquals(ITERATIONS, m.count(), m.toString()));
        }
    }

    @Test
    void shouldPingPongThroughMessaging() throws InterruptedException {
        // The runtime of this build has Messaging: a change of its API that the reflective lookup no
        // longer finds must fail here, not skip.
        assertTrue(MessagingRow.available(), MessagingRow.note());
        final List<Measurement> measurements = run(RankMain.Scenario.SEND_RECV);
        assertEquals(Set.of("rma4j send-recv 8", "rma4j send-recv 1024"), keys(measurements));
    }

    @Test
    void shouldRunEverySingleOperation() throws InterruptedException {
        assertEquals(Set.of("rma4j fetch-and-op 8", "rma4j compare-and-swap 8", "rma4j get 8", "rma4j accumulate 8",
            "rma4j lock-unlock 8", "rma4j barrier 8"), keys(run(RankMain.Scenario.OPS)));
    }

    @Test
    void shouldRunOnlyTheSingleOperationsItsPropertyNames() throws InterruptedException {
        // The profiling step's lock-unlock job: both ranks skip the other rows and their barriers alike.
        final List<String> options = new java.util.ArrayList<>(JavaRunner.DEFAULT_JVM_OPTIONS);
        options.add("-D" + RankContext.OPS_ROWS_PROPERTY + "=lock-unlock,get");
        final List<Measurement> measurements = new JavaRunner(work, options, line -> {
        }).run(RankMain.Scenario.OPS, SIZES, ITERATIONS, 20, 3);
        assertEquals(Set.of("rma4j get 8", "rma4j lock-unlock 8"), keys(measurements));
        measurements.forEach(m -> assertEquals(ITERATIONS, m.count(), m.toString()));
    }

    @Test
    void shouldMeasurePutBandwidthBesideMemcpy() throws InterruptedException {
        final List<Measurement> measurements = new java.util.ArrayList<>(run(RankMain.Scenario.BANDWIDTH));
        measurements.addAll(run(RankMain.Scenario.MEMCPY));
        assertEquals(Set.of("rma4j put-bw 8", "rma4j put-bw 1024", "java-ffm memcpy-bw 8", "java-ffm memcpy-bw 1024"),
            keys(measurements));
        measurements.forEach(m -> assertTrue(m.gbPerSecond() > 0, m.toString()));
    }

    @Test
    void shouldKillAScenarioThatOutlivesItsTimeLimit() {
        final JavaRunner runner = new JavaRunner(work, JavaRunner.DEFAULT_JVM_OPTIONS, line -> {
        }, java.time.Duration.ofMillis(300));
        final IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> runner.run(RankMain.Scenario.FLOOR, new long[] {8}, 10_000_000, 0, 1));
        assertTrue(e.getMessage().contains("did not finish within"), e.getMessage());
    }

    @Test
    void shouldCapTheWarmupOfLargeSizes() {
        assertEquals(20_000, RankContext.warmupFor(20_000, 8));
        assertEquals(256, RankContext.warmupFor(20_000, 1 << 20));
        assertEquals(10, RankContext.warmupFor(20_000, 1L << 40));
        assertEquals(3, RankContext.warmupFor(3, 8));
    }
}
