package org.rma4j.examples.notified;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rma4j.RmaJob;

/**
 * The ping-pong benchmark of Belli and Hoefler, "Notified Access" (IPDPS 2015), section V-A and
 * Listing 1: the half round trip between rank 0 (client) and rank 1 (server) for payloads of 8 B to
 * 1 MiB, with each synchronization scheme the paper compares ({@link Sync}): {@code notified}
 * (Listing 1), {@code putflush} (put, flush, flag), {@code sendrecv} (message passing), {@code pscw}
 * and {@code fence} ({@link PingPongChannels}, {@link PingPongSendRecv}). The paper's unsynchronized
 * lower bound, busy waiting on the payload's first and last bytes, is not a correct program and is
 * left out.
 *
 * <h2>Protocol</h2>
 * A round trip, with {@link PingPongChannel} doing the variant's part:
 * <pre>
 *   client: fill ping(s);  t0;  send(ping, s);  pong = receive(s + 1);  t1;  check pong == ping(s)
 *   server:                     ping = receive(s);  send(ping, s + 1)          (an echo)
 * </pre>
 * The server echoes what it received, so the client's check covers both directions: a payload read
 * before it was complete, or a stale one of an earlier round, fails it. Long {@code i} of the ping of
 * sequence number {@code s} is {@link #pattern}(s, i), distinct for every round. The half round trip
 * is (t1 - t0) / 2; the program reports the median over the timed rounds (the paper's statistic),
 * after {@link #warmupRounds} untimed rounds per size.
 *
 * <p>Ranks 2 and up take part only in the collective calls of a variant (the fences of
 * {@link Sync#FENCE}).
 *
 * <h2>Running</h2>
 * <pre>
 * bin/rmarun -n 2 -cp examples/target/rma4j-examples.jar \
 *     org.rma4j.examples.notified.PingPong [variant|all] [iterations]
 * </pre>
 * Defaults: all variants, {@value #DEFAULT_ITERATIONS} timed rounds per size (as the paper). Rank 0
 * prints one line per variant and size, e.g.
 * {@code pingpong notified: 64 B, 1000 iterations, median half round trip 0.612 us, payloads VERIFIED},
 * then a summary line ending in VERIFIED or FAILED; exit status 1 if a payload was wrong, 2 for bad
 * arguments or a job of fewer than two ranks.
 */
public final class PingPong {
    /** Default timed round trips per size and variant (the paper repeats each test 1,000 times). */
    public static final int DEFAULT_ITERATIONS = 1000;
    /** Payload sizes: 8 B, then the powers of 4 from 16 B to 1 MiB. */
    static final long[] SIZES = {8, 16, 64, 256, 1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20};
    /** The variants, in the order {@code all} runs them. */
    static final List<Sync> VARIANTS = List.of(Sync.NOTIFIED, Sync.PUT_FLUSH, Sync.SEND_RECV, Sync.PSCW, Sync.FENCE);

    private static final String PROGRAM = "PingPong";

    private PingPong() {
    }

    /**
     * The outcome for one variant and size, at rank 0.
     *
     * @param sync                   the variant.
     * @param sizeBytes              the payload size.
     * @param iterations             the timed round trips.
     * @param medianHalfRoundTripNs  the median of (t1 - t0) / 2 over the timed round trips.
     * @param meanHalfRoundTripNs    their mean: beside the median, it shows the rare long round trips (a rank
     *                               that waited for a CPU on a loaded machine).
     * @param errors                 the round trips whose echo differed from the ping.
     */
    public record Measurement(Sync sync, long sizeBytes, int iterations, long medianHalfRoundTripNs,
        long meanHalfRoundTripNs, long errors) {
        /**
         * @return the output line of this measurement.
         */
        public String line() {
            return String.format(Locale.ROOT,
                "pingpong %s: %s, %d iterations, median half round trip %.3f us, " + "payloads %s", sync.label(),
                sizeLabel(sizeBytes), iterations, medianHalfRoundTripNs / 1e3,
                errors == 0 ? "VERIFIED" : "FAILED (" + errors + " wrong)");
        }
    }

    /**
     * Runs the ping-pong of {@code sync} for every size as the calling rank of {@code job}. Collective:
     * every rank calls it with the same arguments.
     *
     * @return at rank 0 one measurement per size; an empty list at the other ranks.
     * @throws IllegalArgumentException for a job of fewer than 2 ranks, iterations &lt; 1, or a size that
     *                                  is not a positive multiple of 8 (at every rank, before any
     *                                  collective call).
     */
    public static List<Measurement> run(final RmaJob job, final Sync sync, final int iterations, final long... sizes) {
        check(job.size(), iterations, sizes);
        long maxSize = 0;
        for (final long size : sizes) {
            maxSize = Math.max(maxSize, size);
        }
        final List<Measurement> measurements = new ArrayList<>();
        final int rank = job.rank();
        try (Arena arena = Arena.ofConfined(); PingPongChannel channel = open(sync, job, maxSize)) {
            final MemorySegment ping = arena.allocate(maxSize, Long.BYTES);
            long sequence = 0;
            for (final long size : sizes) {
                final int rounds = warmupRounds(iterations) + iterations;
                final long[] halfRoundTrips = new long[iterations];
                long errors = 0;
                job.barrier();
                for (int round = 0; round < rounds; round++) {
                    final long pingSequence = ++sequence;
                    final long pongSequence = ++sequence;
                    if (rank == 0) {
                        final MemorySegment payload = ping.asSlice(0, size);
                        fill(payload, pingSequence);
                        final long t0 = System.nanoTime();
                        channel.send(payload, pingSequence);
                        final MemorySegment pong = channel.receive(size, pongSequence);
                        final long t1 = System.nanoTime();
                        if (!matches(pong, pingSequence)) {
                            errors++;
                        }
                        final int timed = round - (rounds - iterations);
                        if (timed >= 0) {
                            halfRoundTrips[timed] = (t1 - t0) / 2;
                        }
                    } else if (rank == 1) {
                        channel.send(channel.receive(size, pingSequence), pongSequence);
                    } else {
                        channel.standBy();
                    }
                }
                if (rank == 0) {
                    measurements.add(new Measurement(sync, size, iterations, Programs.median(halfRoundTrips),
                        Math.round(Programs.mean(halfRoundTrips)), errors));
                }
            }
        }
        return measurements;
    }

    /**
     * Collective: the channel of {@code sync}.
     */
    static PingPongChannel open(final Sync sync, final RmaJob job, final long maxSizeBytes) {
        return sync == Sync.SEND_RECV
            ? new PingPongSendRecv(job, maxSizeBytes)
            : PingPongChannels.open(sync, job, maxSizeBytes);
    }

    /**
     * @return the untimed round trips before the timed ones of each size: a tenth, at least one.
     */
    static int warmupRounds(final int iterations) {
        return Math.max(1, iterations / 10);
    }

    /**
     * @return long {@code index} of the payload of half round trip {@code sequence}.
     */
    static long pattern(final long sequence, final long index) {
        return sequence * 0x9E3779B97F4A7C15L + index;
    }

    static void fill(final MemorySegment payload, final long sequence) {
        final long longs = payload.byteSize() / Long.BYTES;
        for (long i = 0; i < longs; i++) {
            payload.setAtIndex(JAVA_LONG, i, pattern(sequence, i));
        }
    }

    static boolean matches(final MemorySegment payload, final long sequence) {
        final long longs = payload.byteSize() / Long.BYTES;
        for (long i = 0; i < longs; i++) {
            if (payload.getAtIndex(JAVA_LONG, i) != pattern(sequence, i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return {@code 8 B}, {@code 4 KiB}, {@code 1 MiB}: the size in the largest binary unit that
     *         divides it.
     */
    static String sizeLabel(final long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }

    /**
     * @return the summary line rank 0 prints after the per-size lines.
     */
    static String summary(final int ranks, final List<Sync> variants, final int iterations, final long errors) {
        return String.format(Locale.ROOT, "pingpong: %d ranks, %d %s x %d sizes, %d iterations each: %s", ranks,
            variants.size(), variants.size() == 1 ? "variant" : "variants", SIZES.length, iterations,
            errors == 0 ? "VERIFIED" : "FAILED");
    }

    private static void check(final int ranks, final int iterations, final long[] sizes) {
        if (ranks < 2) {
            throw new IllegalArgumentException("ping-pong needs a job of at least 2 ranks, not " + ranks);
        }
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations=" + iterations + " must be >= 1");
        }
        for (final long size : sizes) {
            if (size <= 0 || size % Long.BYTES != 0) {
                throw new IllegalArgumentException("size=" + size + " must be a positive multiple of 8");
            }
        }
    }

    /**
     * Runs the selected variants at every size and prints the lines at rank 0.
     *
     * @param args {@code [variant|all] [iterations]}.
     */
    public static void main(final String[] args) {
        Programs.main(PROGRAM, "[" + Sync.ALL + "|" + Sync.labels(VARIANTS) + "] [iterations]  (defaults " + Sync.ALL
            + " " + DEFAULT_ITERATIONS + "; at least 2 ranks)", args, (arguments, ranks) -> {
                Programs.checkArgumentCount(arguments, 2);
                final List<Sync> variants = Sync.select(arguments.length > 0 ? arguments[0] : Sync.ALL, VARIANTS);
                final int iterations = Programs.intArgument(arguments, 1, "iterations", DEFAULT_ITERATIONS, 1);
                check(ranks, iterations, SIZES);
                return job -> {
                    long errors = 0;
                    for (final Sync sync : variants) {
                        for (final Measurement measurement : run(job, sync, iterations, SIZES)) {
                            System.out.println(measurement.line());
                            errors += measurement.errors();
                        }
                    }
                    if (job.rank() == 0) {
                        System.out.println(summary(job.size(), variants, iterations, errors));
                    }
                    return errors == 0;
                };
            });
    }
}
