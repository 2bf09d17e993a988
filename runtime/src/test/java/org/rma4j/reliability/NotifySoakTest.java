package org.rma4j.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.launch.JobResult;
import org.rma4j.test.ShmTestDirectory;

/**
 * The notification soak of issue 8: {@link NotifySoakMain} sends {@code -Drma4j.notify.soak.total=N}
 * notifications (1,000,000 by default, for CI) from 3 producer processes to 1 consumer process, which
 * checks that none is lost or duplicated, that each source's order is kept and that each put's data
 * arrived; every rank samples its memory. The full soak is 10,000,000:
 *
 * <pre>
 * mvn -B -pl runtime -am verify -Dtest=NotifySoakTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Drma4j.notify.soak.total=10000000
 * </pre>
 *
 * <p>"Memory flat", asserted per rank without timing: the heap used right after a full {@code System.gc()}
 * at the end is within {@link #HEAP_GROWTH_KIB} of the same figure at 10 % of the traffic, and the
 * resident set size within {@link #RSS_GROWTH_KIB}. The 10 % sample is the baseline because by then class
 * loading, the JIT's first compilations and the rings' and queues' first allocations are behind. The
 * ranks run with the suite's JVM options ({@link Jobs#FAST_JVM}: C1 only, serial GC) and a fixed,
 * pre-touched heap ({@code -Xms64m -Xmx64m -XX:+AlwaysPreTouch}), so heap growth cannot show up in the
 * resident set; what remains is native memory (JIT code, mappings, thread stacks). The consumer handles
 * every notification: a leak of one retained object per notification (24 bytes or more in the CI variant,
 * any object in the full run) exceeds the heap bound, and in the full run a native leak of 4 bytes per
 * notification exceeds the resident-set bound; a backlog the unexpected queue cannot bound runs out of the
 * 64 MiB heap. The samples of rank 0 (with the size of its unexpected queue) and the figures of start,
 * 10 %, middle and end of every rank are printed.
 */
@Tag("reliability")
@Tag("soak")
class NotifySoakTest {
    static final String TOTAL_PROP_NAME = "rma4j.notify.soak.total";
    static final long TOTAL_DEFAULT = 1_000_000;
    /** Bound of the heap-after-GC growth from the 10 % sample to the end, per rank. */
    static final long HEAP_GROWTH_KIB = 16 * 1024;
    /** Bound of the resident-set growth from the 10 % sample to the end, per rank. */
    static final long RSS_GROWTH_KIB = 32 * 1024;
    /**
     * Rank JVMs: a fixed pre-touched heap (see the class comment); a wait timeout so that a lost notification
     * ends rank 0's await with an exception instead of hanging.
     */
    private static final List<String> JVM_OPTIONS = List.of("-Xms64m", "-Xmx64m", "-XX:+AlwaysPreTouch",
        "-Drma4j.wait.timeout.ms=60000");

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory("rma4j-reliability-");

    @Test
    void shouldDeliverEveryNotificationOnceInPerSourceOrderFromThreeProducerProcessesWithFlatMemory() throws Exception {
        final long total = Long.getLong(TOTAL_PROP_NAME, TOTAL_DEFAULT);
        System.out.println("notify soak: " + total + " notifications, ranks 1-3 to rank 0");
        final Jobs.Outcome outcome = run(total);
        final String context = outcome.describe();
        final String consumer = soakLine(outcome, 0);
        outcome.lines(0, "MEM ").forEach(line -> System.out.println("notify soak: " + line));
        System.out.println("notify soak: " + consumer);
        assertEquals(Long.toString(total), Jobs.Outcome.field(consumer, "received"), context);
        for (final String count : List.of("lost", "duplicated", "outOfOrder", "badData", "foreign", "unexpected")) {
            assertEquals("0", Jobs.Outcome.field(consumer, count), () -> count + "\n" + context);
        }
        long sent = 0;
        for (int rank = 1; rank < NotifySoakMain.RANKS; rank++) {
            final String producer = soakLine(outcome, rank);
            System.out.println("notify soak: " + producer);
            assertEquals(Long.toString(NotifySoakMain.countOf(rank, total)), Jobs.Outcome.field(producer, "sent"),
                context);
            sent += Long.parseLong(Jobs.Outcome.field(producer, "sent"));
        }
        assertEquals(total, sent, context);
        for (int rank = 0; rank < NotifySoakMain.RANKS; rank++) {
            assertFlat(outcome, rank);
        }
        assertEquals(0, outcome.result().exitCode(), context);
        base.assertEmpty("by the notification soak");
    }

    private Jobs.Outcome run(final long total) throws Exception {
        final Jobs.Output output = new Jobs.Output();
        final CompletableFuture<JobResult> run = new CompletableFuture<>();
        final Thread runner = Thread.ofPlatform().name("notify-soak").start(() -> {
            try {
                run.complete(
                    Jobs.launcher(base.path(), NotifySoakMain.RANKS, NotifySoakMain.class, output, Long.toString(total))
                        .jvmOptions(JVM_OPTIONS).build().run());
            } catch (final Throwable t) {
                run.completeExceptionally(t);
            }
        });
        try {
            // Hang protection only (nothing is asserted on time): 2 minutes to start and stop 4 JVMs plus 100 us
            // per notification, over 30 times what one takes on 2 cores (10,000,000: 1,120 s, within surefire's
            // 1,200 s fork timeout).
            return new Jobs.Outcome(run.get(120 + total / 10_000, TimeUnit.SECONDS), output);
        } finally {
            runner.interrupt(); // a launcher interrupted while it waits kills its ranks
            runner.join();
        }
    }

    private static String soakLine(final Jobs.Outcome outcome, final int rank) {
        final List<String> lines = outcome.lines(rank, "SOAK ");
        assertEquals(1, lines.size(), () -> "rank " + rank + " did not report its soak:\n" + outcome.describe());
        return lines.getFirst();
    }

    private static void assertFlat(final Jobs.Outcome outcome, final int rank) {
        final String line = soakLine(outcome, rank);
        final long heap10 = kib(line, "heap10KiB");
        final long heapEnd = kib(line, "heapEndKiB");
        final long rss10 = kib(line, "rss10KiB");
        final long rssEnd = kib(line, "rssEndKiB");
        System.out.printf(
            "notify soak: rank %d heap after GC start/10%%/50%%/end %d/%d/%d/%d KiB, " + "RSS %d/%d/%d/%d KiB%n", rank,
            kib(line, "heapStartKiB"), heap10, kib(line, "heap50KiB"), heapEnd, kib(line, "rssStartKiB"), rss10,
            kib(line, "rss50KiB"), rssEnd);
        assertEquals("11", Jobs.Outcome.field(line, "samples"), outcome::describe);
        assertTrue(heapEnd - heap10 < HEAP_GROWTH_KIB, () -> "rank " + rank + ": heap after GC grew from " + heap10
            + " KiB at 10 % to " + heapEnd + " KiB at the end\n" + outcome.describe());
        assertTrue(rssEnd - rss10 < RSS_GROWTH_KIB, () -> "rank " + rank + ": resident set grew from " + rss10
            + " KiB at 10 % to " + rssEnd + " KiB at the end\n" + outcome.describe());
    }

    private static long kib(final String line, final String key) {
        return Long.parseLong(Jobs.Outcome.field(line, key));
    }
}
