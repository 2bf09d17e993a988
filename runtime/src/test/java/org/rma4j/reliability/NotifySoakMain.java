package org.rma4j.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import org.rma4j.NotifyRequest;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.RmaTimeoutException;

/**
 * Rank program of {@link NotifySoakTest} (issue 8, soak): 4 ranks; ranks 1, 2 and 3 send {@code total}
 * notified puts between them (as evenly as possible) to rank 0, which receives them one at a time with a
 * persistent {@code notifyInit(ANY_SOURCE, ANY_TAG, 1)} request and checks every one.
 *
 * <p>Producer {@code p} sends sequence numbers {@code 0..count-1} as tags, each with an inline 8-byte put of
 * the sequence number to slot {@code seq % SLOTS} of its own region of rank 0's window. For each
 * notification rank 0 checks:
 * <ul>
 *   <li>the source is a producer and the tag was not received before from it (else {@code duplicated});</li>
 *   <li>the tag is the next one expected from that source (else {@code outOfOrder});</li>
 *   <li>the slot holds this put's value or a later one of the same slot ({@code v >= seq} and
 *   {@code v = seq mod SLOTS}; later puts may have overwritten it since it arrived), else {@code badData};</li>
 * </ul>
 * and at the end {@code lost} (expected tags never received) and the unexpected queue (must be empty). A
 * lost notification cannot hang the job: the ranks run with {@code -Drma4j.wait.timeout.ms}, so rank 0's
 * await ends with a RmaTimeoutException and the counts so far are reported.
 *
 * <p>Memory: every rank samples at 0, 10, 20, ..., 100 % of its own traffic the heap used right after
 * {@code System.gc()} (MemoryMXBean) and the resident set size (VmRSS of /proc/self/status), printing
 * {@code MEM rank=R pct=P heapKiB=H rssKiB=S ms=T}. Its last line is
 * {@code SOAK rank=R role=... count=N ... ms=T heapStartKiB= heap10KiB= heap50KiB= heapEndKiB= rssStartKiB=
 * rss10KiB= rss50KiB= rssEndKiB=}; the test asserts on these figures.
 *
 * <p>Arguments: {@code total}. Exit status 0, or 8 when a check failed (after printing the SOAK line).
 */
public final class NotifySoakMain {
    static final int RANKS = 4;
    /** Slots of each producer's region of rank 0's window. */
    private static final int SLOTS = 64;
    private static final int SAMPLES = 10;

    private NotifySoakMain() {
    }

    public static void main(final String[] args) {
        final long total = Long.parseLong(args[0]);
        final boolean passed;
        try (RmaJob job = Rma.init()) {
            if (job.size() != RANKS) {
                throw new IllegalStateException("the soak needs " + RANKS + " ranks, not " + job.size());
            }
            final int rank = job.rank();
            try (Window window = job.allocateShared(rank == 0 ? 8L * SLOTS * RANKS : 0, 8)) {
                job.barrier();
                passed = rank == 0 ? consume(window, total) : produce(window, rank, countOf(rank, total));
                job.barrier();
            }
        }
        if (!passed) {
            System.exit(8);
        }
    }

    /**
     * @return notifications producer {@code rank} sends: {@code total} split over the producers, the first
     *         ones taking one more when it does not divide.
     */
    static long countOf(final int rank, final long total) {
        final int producers = RANKS - 1;
        return total / producers + (rank - 1 < total % producers ? 1 : 0);
    }

    private static boolean produce(final Window window, final int rank, final long count) {
        final long[] value = new long[1];
        final MemorySegment payload = MemorySegment.ofArray(value);
        final long region = (long)rank * SLOTS;
        final Samples samples = new Samples(rank, count, null);
        final long startNs = System.nanoTime();
        samples.takeDue(0, startNs);
        for (long seq = 0; seq < count; seq++) {
            value[0] = seq;
            window.putNotify(payload, 0, region + seq % SLOTS, (int)seq);
            samples.takeDue(seq + 1, startNs);
        }
        final long ms = (System.nanoTime() - startNs) / 1_000_000;
        System.out.println(
            "SOAK rank=" + rank + " role=producer count=" + count + " sent=" + count + " ms=" + ms + samples.summary());
        return true;
    }

    private static boolean consume(final Window window, final long total) {
        final BitSet[] seen = new BitSet[RANKS];
        final long[] next = new long[RANKS];
        for (int source = 1; source < RANKS; source++) {
            seen[source] = new BitSet((int)countOf(source, total));
        }
        final MemorySegment memory = window.segment();
        final Samples samples = new Samples(0, total, window);
        long received = 0;
        long duplicated = 0;
        long outOfOrder = 0;
        long badData = 0;
        long foreign = 0;
        String failure = "none";
        final long startNs = System.nanoTime();
        samples.takeDue(0, startNs);
        try (NotifyRequest one = window.notifyInit(Rma.ANY_SOURCE, Rma.ANY_TAG, 1)) {
            while (received < total) {
                one.start();
                final NotifyRequest.Status status = one.await();
                received++;
                final int source = status.source();
                final long seq = status.tag();
                if (source < 1 || source >= RANKS) {
                    foreign++;
                } else if (seen[source].get((int)seq)) {
                    duplicated++;
                } else {
                    seen[source].set((int)seq);
                    if (seq != next[source]) {
                        outOfOrder++;
                    }
                    next[source] = seq + 1;
                    final long v = memory.get(ValueLayout.JAVA_LONG, status.displacement() * 8);
                    final long slot = (long)source * SLOTS + seq % SLOTS;
                    if (status.displacement() != slot || v < seq || (v - seq) % SLOTS != 0) {
                        badData++;
                    }
                }
                samples.takeDue(received, startNs);
            }
        } catch (final RmaTimeoutException e) {
            failure = "timeout";
            System.out.println("TIMEOUT after " + received + " of " + total + ": " + e.getMessage());
        }
        final long ms = (System.nanoTime() - startNs) / 1_000_000;
        long lost = 0;
        for (int source = 1; source < RANKS; source++) {
            lost += countOf(source, total) - seen[source].cardinality();
        }
        final int unexpected = window.unexpectedNotifications();
        System.out.println("SOAK rank=0 role=consumer count=" + total + " received=" + received + " lost=" + lost
            + " duplicated=" + duplicated + " outOfOrder=" + outOfOrder + " badData=" + badData + " foreign=" + foreign
            + " unexpected=" + unexpected + " failure=" + failure + " ms=" + ms + " perSecond="
            + (ms == 0 ? 0 : received * 1000 / ms) + samples.summary());
        return received == total && lost == 0 && duplicated == 0 && outOfOrder == 0 && badData == 0 && foreign == 0
            && unexpected == 0;
    }

    /**
     * Memory samples of one rank at every tenth of its traffic.
     */
    private static final class Samples {
        private final int rank;
        private final long count;
        private final Window queue;
        private final long[] heapKiB = new long[SAMPLES + 1];
        private final long[] rssKiB = new long[SAMPLES + 1];
        private int taken;
        private long nextAt;

        /**
         * @param queue the consumer's window, whose unexpected queue is reported with each sample; or null.
         */
        Samples(final int rank, final long count, final Window queue) {
            this.rank = rank;
            this.count = count;
            this.queue = queue;
        }

        /**
         * Takes the next sample if {@code done} reached it.
         */
        void takeDue(final long done, final long startNs) {
            if (done < nextAt || taken > SAMPLES) {
                return;
            }
            System.gc();
            heapKiB[taken] = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1024;
            rssKiB[taken] = rssKiB();
            System.out.println(
                "MEM rank=" + rank + " pct=" + taken * 100 / SAMPLES + " done=" + done + " heapKiB=" + heapKiB[taken]
                    + " rssKiB=" + rssKiB[taken] + (queue == null ? "" : " queued=" + queue.unexpectedNotifications())
                    + " ms=" + (System.nanoTime() - startNs) / 1_000_000);
            taken++;
            nextAt = count * taken / SAMPLES;
        }

        String summary() {
            return " heapStartKiB=" + heapKiB[0] + " heap10KiB=" + heapKiB[1] + " heap50KiB=" + heapKiB[SAMPLES / 2]
                + " heapEndKiB=" + heapKiB[SAMPLES] + " rssStartKiB=" + rssKiB[0] + " rss10KiB=" + rssKiB[1]
                + " rss50KiB=" + rssKiB[SAMPLES / 2] + " rssEndKiB=" + rssKiB[SAMPLES] + " samples=" + taken;
        }

        private static long rssKiB() {
            try {
                for (final String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith("VmRSS:")) {
                        return Long.parseLong(line.substring("VmRSS:".length()).replace("kB", "").trim());
                    }
                }
                return -1;
            } catch (final IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
