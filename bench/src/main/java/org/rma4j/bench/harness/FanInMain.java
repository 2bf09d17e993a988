package org.rma4j.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.rma4j.NotifyRequest;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.messaging.Messaging;

/**
 * Rank program of the fan-in sweep ({@link FanInSweep}): every rank but 0 sends {@code PER_PRODUCER} 8-byte
 * messages to rank 0 as fast as it can, rank 0 takes them from any source, and times how long all of them
 * took from a barrier to the last one. The same counts as the C peer {@code mpi_fanin.c}.
 *
 * <p>Variants (the consumer's side; producers always {@code putNotify} 8 bytes into their own word of rank 0's
 * window, or {@code Messaging.send}):
 * <ul>
 *   <li>{@code notified-each}: one request {@code notifyInit(ANY_SOURCE, tag, 1)}, started and awaited per
 *   message: the status of every notification, as a receive per message gives.</li>
 *   <li>{@code notified-batch}: a request {@code notifyInit(ANY_SOURCE, tag, BATCH)} started and awaited per
 *   {@value #BATCH} messages: counting without a call per message (the status names the last one).</li>
 *   <li>{@code messaging}: {@code Messaging.recv(buffer, ANY_SOURCE, tag)} per message.</li>
 * </ul>
 *
 * <p>usage: {@code FanInMain VARIANT OUT_FILE PER_PRODUCER WARMUP_ROUNDS ROUNDS}. Rank 0 appends one line per
 * timed round to OUT_FILE: {@code rma4j VARIANT RANKS MESSAGES_PER_SECOND}. At the end every producer's word
 * of rank 0's window must hold its last sequence number (notified variants), else the rank fails.
 */
public final class FanInMain {
    /** Tag of the messages. */
    static final int TAG = 3;
    /** Messages per request of {@code notified-batch}. */
    static final int BATCH = 256;

    private FanInMain() {
    }

    public static void main(final String[] args) throws IOException {
        if (args.length != 5) {
            System.err.println("usage: FanInMain VARIANT OUT_FILE PER_PRODUCER WARMUP_ROUNDS ROUNDS");
            System.exit(2);
        }
        final String variant = args[0];
        final Path out = Path.of(args[1]);
        final int perProducer = Integer.parseInt(args[2]);
        final int warmup = Integer.parseInt(args[3]);
        final int rounds = Integer.parseInt(args[4]);
        try (RmaJob job = Rma.init()) {
            final double[] rates = switch (variant) {
                case "notified-each", "notified-batch" ->
                    notified(job, variant.equals("notified-batch"), perProducer, warmup, rounds);
                case "messaging" -> messaging(job, perProducer, warmup, rounds);
                default -> throw new IllegalArgumentException("unknown fan-in variant " + variant);
            };
            if (job.rank() == 0) {
                final StringBuilder lines = new StringBuilder();
                for (final double rate : rates) {
                    lines.append(String.format(Locale.ROOT, "rma4j %s %d %.1f%n", variant, job.size(), rate));
                }
                Files.writeString(out, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            }
        } catch (final UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static double[] notified(final RmaJob job, final boolean batch, final int perProducer, final int warmup,
        final int rounds) {
        final int producers = job.size() - 1;
        final long total = (long)producers * perProducer;
        final double[] rates = new double[rounds];
        try (Window window = job.allocateShared(8L * job.size(), 8)) {
            final MemorySegment word = MemorySegment.ofArray(new long[1]);
            final NotifyRequest each = window.notifyInit(Rma.ANY_SOURCE, TAG, 1);
            final NotifyRequest many = window.notifyInit(Rma.ANY_SOURCE, TAG, BATCH);
            final NotifyRequest rest = window.notifyInit(Rma.ANY_SOURCE, TAG, (int)(total % BATCH));
            for (int round = 0; round < warmup + rounds; round++) {
                job.barrier();
                if (job.rank() == 0) {
                    final long start = System.nanoTime();
                    if (batch) {
                        for (long taken = 0; taken + BATCH <= total; taken += BATCH) {
                            many.start();
                            many.await();
                        }
                        rest.start();
                        rest.await();
                    } else {
                        for (long i = 0; i < total; i++) {
                            each.start();
                            each.await();
                        }
                    }
                    final long ns = System.nanoTime() - start;
                    if (round >= warmup) {
                        rates[round - warmup] = total * 1e9 / ns;
                    }
                } else {
                    for (int i = 0; i < perProducer; i++) {
                        word.set(ValueLayout.JAVA_LONG, 0, i);
                        window.putNotify(word, 0, job.rank(), TAG);
                    }
                }
            }
            job.barrier();
            if (job.rank() == 0) {
                for (int producer = 1; producer < job.size(); producer++) {
                    final long last = window.segment().get(ValueLayout.JAVA_LONG, 8L * producer);
                    if (last != perProducer - 1) {
                        throw new IllegalStateException(
                            "rank " + producer + "'s word holds " + last + ", not " + (perProducer - 1));
                    }
                }
            }
            each.close();
            many.close();
            rest.close();
        }
        return rates;
    }

    private static double[] messaging(final RmaJob job, final int perProducer, final int warmup, final int rounds) {
        final long total = (long)(job.size() - 1) * perProducer;
        final double[] rates = new double[rounds];
        try (Messaging messaging = Messaging.create(job)) {
            final MemorySegment buffer = MemorySegment.ofArray(new long[1]);
            for (int round = 0; round < warmup + rounds; round++) {
                messaging.barrier();
                if (job.rank() == 0) {
                    final long start = System.nanoTime();
                    for (long i = 0; i < total; i++) {
                        messaging.recv(buffer, Rma.ANY_SOURCE, TAG);
                    }
                    final long ns = System.nanoTime() - start;
                    if (round >= warmup) {
                        rates[round - warmup] = total * 1e9 / ns;
                    }
                } else {
                    for (int i = 0; i < perProducer; i++) {
                        buffer.set(ValueLayout.JAVA_LONG, 0, i);
                        messaging.send(buffer, 0, TAG);
                    }
                }
            }
        }
        return rates;
    }
}
