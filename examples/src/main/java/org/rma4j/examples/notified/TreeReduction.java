package org.rma4j.examples.notified;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.rma4j.RmaJob;

/**
 * The hierarchical tree computation of Belli and Hoefler, "Notified Access" (IPDPS 2015), section
 * VI-B: a reduction (element-wise sum) of a vector of longs to rank 0 over a 16-ary tree
 * ({@link TreeShape}), with each synchronization scheme of the paper's Figure 4c.
 *
 * <h2>Protocol</h2>
 * In each round every rank adds its children's partial sums to its own contribution and hands the
 * result to its parent; rank 0 ends with the total. The variants differ only in how a parent learns
 * that its children's data is there ({@link ReductionChannel}): {@code notified} (one counting request
 * for all children, so a parent wakes once per round however many children it has), {@code sendrecv}
 * and {@code pscw} (the other two schemes of Figure 4c), and {@code putflush} (put, flush and a counter
 * incremented with accumulate, polled by the parent). The paper's comparison with the vendor's
 * MPI_Reduce is not repeated here. Rounds are
 * separated by a barrier, which also keeps a child from overwriting its slot at the parent before the
 * parent has read the previous round; rank 0 times each round from the barrier until it holds the
 * sum. {@link #warmupRounds} untimed rounds come first.
 *
 * <h2>Verification</h2>
 * Element i of rank r's contribution in round k is {@link #contribution}(k, r, i), different in every
 * round, so a stale or missing partial sum changes the total. Rank 0 compares every round's total
 * with the sum it computes itself; long arithmetic makes the comparison exact.
 *
 * <h2>Running</h2>
 * <pre>
 * bin/rmarun -n 4 -cp examples/target/rma4j-examples.jar \
 *     org.rma4j.examples.notified.TreeReduction [variant|all] [length rounds]
 * </pre>
 * Defaults: all variants, vectors of {@value #DEFAULT_LENGTH} longs (small messages, as in the paper),
 * {@value #DEFAULT_ROUNDS} rounds. Rank 0 prints one line per variant, e.g.
 * <pre>
 * tree-reduction notified: 16-ary tree, 4 ranks, 8 longs, 1000 rounds, mean 9.81 us, median 8.20 us,
 *     0 wrong sums: VERIFIED                                                          (one line)
 * </pre>
 * exit status 1 if a sum is wrong, 2 for bad arguments.
 */
public final class TreeReduction {
    /** Default vector length in longs. */
    public static final int DEFAULT_LENGTH = 8;
    /** Default number of timed rounds. */
    public static final int DEFAULT_ROUNDS = 1000;
    /** The variants, in the order {@code all} runs them. */
    public static final List<Sync> VARIANTS = List.of(Sync.NOTIFIED, Sync.PUT_FLUSH, Sync.SEND_RECV, Sync.PSCW);

    private static final String PROGRAM = "TreeReduction";

    private TreeReduction() {
    }

    /**
     * The outcome of {@link #run} at one rank.
     *
     * @param lastSum      at rank 0 the total of the last round; null at the other ranks.
     * @param wrongRounds  at rank 0 the rounds whose total was wrong (warm-up rounds included).
     * @param meanNanos    at rank 0 the mean time of a timed round.
     * @param medianNanos  at rank 0 the median time of a timed round.
     */
    public record Result(long[] lastSum, long wrongRounds, double meanNanos, long medianNanos) {
    }

    /**
     * Runs {@code rounds} timed reductions (after the warm-up ones) as the calling rank of {@code job}.
     * Collective: every rank calls it with the same arguments.
     *
     * @throws IllegalArgumentException if length or rounds is below 1 (at every rank, before any
     *                                  collective call).
     */
    public static Result run(final RmaJob job, final Sync sync, final int length, final int rounds) {
        check(length, rounds);
        final int rank = job.rank();
        final boolean hasChildren = TreeShape.childCount(rank, job.size()) > 0;
        final int warmup = warmupRounds(rounds);
        final long[] times = new long[rounds];
        final long[] partial = new long[length];
        long wrongRounds = 0;
        try (ReductionChannel channel = open(sync, job, length)) {
            for (int round = 0; round < warmup + rounds; round++) {
                for (int i = 0; i < length; i++) {
                    partial[i] = contribution(round, rank, i);
                }
                job.barrier();
                final long start = System.nanoTime();
                if (hasChildren) {
                    channel.addChildren(round, partial);
                }
                if (rank > 0) {
                    channel.deliver(round, partial);
                } else {
                    final long end = System.nanoTime();
                    if (round >= warmup) {
                        times[round - warmup] = end - start;
                    }
                    if (!Arrays.equals(partial, expectedSum(round, job.size(), length))) {
                        wrongRounds++;
                    }
                }
            }
        }
        return rank == 0
            ? new Result(partial, wrongRounds, Programs.mean(times), Programs.median(times))
            : new Result(null, 0, 0, 0);
    }

    /**
     * Collective: the channel of {@code sync}.
     */
    static ReductionChannel open(final Sync sync, final RmaJob job, final int length) {
        return sync == Sync.SEND_RECV ? new ReductionSendRecv(job, length) : ReductionChannels.open(sync, job, length);
    }

    /**
     * @return the untimed rounds before the timed ones: a tenth, at least one.
     */
    static int warmupRounds(final int rounds) {
        return Math.max(1, rounds / 10);
    }

    /**
     * @return element {@code index} of the contribution of {@code rank} in {@code round}.
     */
    static long contribution(final int round, final int rank, final int index) {
        return (round + 1L) * 1_000_003L * (rank + 1) + 31L * index + rank;
    }

    /**
     * @return the sum over every rank of the contributions of {@code round}.
     */
    static long[] expectedSum(final int round, final int ranks, final int length) {
        final long[] sum = new long[length];
        for (int rank = 0; rank < ranks; rank++) {
            for (int i = 0; i < length; i++) {
                sum[i] += contribution(round, rank, i);
            }
        }
        return sum;
    }

    /**
     * @return the line rank 0 prints for one variant.
     */
    static String summary(final Sync sync, final int ranks, final int length, final int rounds, final Result result) {
        return String.format(Locale.ROOT,
            "tree-reduction %s: %d-ary tree, %d %s, %d longs, %d rounds, mean %.2f us, median %.2f us, "
                + "%d wrong sums: %s",
            sync.label(), TreeShape.ARITY, ranks, ranks == 1 ? "rank" : "ranks", length, rounds,
            result.meanNanos() / 1e3, result.medianNanos() / 1e3, result.wrongRounds(),
            result.wrongRounds() == 0 ? "VERIFIED" : "FAILED");
    }

    private static void check(final int length, final int rounds) {
        if (length < 1) {
            throw new IllegalArgumentException("length=" + length + " must be >= 1");
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds=" + rounds + " must be >= 1");
        }
    }

    /**
     * Runs the selected variants and prints one line per variant at rank 0.
     *
     * @param args {@code [variant|all] [length rounds]}.
     */
    public static void main(final String[] args) {
        Programs.main(PROGRAM, "[" + Sync.ALL + "|" + Sync.labels(VARIANTS) + "] [length rounds]  (defaults " + Sync.ALL
            + " " + DEFAULT_LENGTH + " " + DEFAULT_ROUNDS + ")", args, (arguments, ranks) -> {
                Programs.checkArgumentCount(arguments, 3);
                final List<Sync> variants = Sync.select(arguments.length > 0 ? arguments[0] : Sync.ALL, VARIANTS);
                final int length = Programs.intArgument(arguments, 1, "length", DEFAULT_LENGTH, 1);
                final int rounds = Programs.intArgument(arguments, 2, "rounds", DEFAULT_ROUNDS, 1);
                return job -> {
                    boolean passed = true;
                    for (final Sync sync : variants) {
                        final Result result = run(job, sync, length, rounds);
                        if (job.rank() == 0) {
                            System.out.println(summary(sync, job.size(), length, rounds, result));
                            passed &= result.wrongRounds() == 0;
                        }
                    }
                    return passed;
                };
            });
    }
}
