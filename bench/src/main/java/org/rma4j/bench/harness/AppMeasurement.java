package org.rma4j.bench.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One implementation, application, variant, rank count and problem size: the throughput of every timed
 * repetition of the round kept (the one with the highest median, {@link #bestOfRounds}) and their median.
 *
 * @param app            {@link Application#id}.
 * @param variant        the synchronization variant's label ({@code notified}, {@code sendrecv}, ...).
 * @param ranks          processes of the job.
 * @param size           the application's size parameter ({@link Application}).
 * @param work           the application's work parameter ({@link Application}).
 * @param sizeLabel      the problem size as the report shows it.
 * @param unit           unit of the throughputs.
 * @param throughputs    one per timed repetition, in run order.
 * @param timesNs        rank 0's time per unit of work ({@link Application#timeUnit}) of each repetition.
 * @param verified       whether every repetition's result was right (in every round).
 * @param impl           {@link Rows#RMA4J} for the Java programs, {@link Rows#OPENMPI} for the C peers (rma4j
 *                       in files from before the C peers).
 * @param roundMedians   the median throughput of every round, in run order (the kept round's alone in files
 *                       from before rounds).
 */
public record AppMeasurement(String app, String variant, int ranks, int size, int work, String sizeLabel, String unit,
    List<Double> throughputs, List<Double> timesNs, boolean verified, String impl, List<Double> roundMedians) {

    public AppMeasurement {
        throughputs = List.copyOf(throughputs);
        timesNs = List.copyOf(timesNs);
        impl = impl == null ? Rows.RMA4J : impl;
        if (throughputs.isEmpty() || throughputs.size() != timesNs.size()) {
            throw new IllegalArgumentException(
                app + " " + variant + ": " + throughputs.size() + " throughputs and " + timesNs.size() + " times");
        }
        roundMedians = roundMedians == null || roundMedians.isEmpty()
            ? List.of(median(throughputs))
            : List.copyOf(roundMedians);
    }

    /**
     * One round of rma4j's program.
     */
    public AppMeasurement(final String app, final String variant, final int ranks, final int size, final int work,
        final String sizeLabel, final String unit, final List<Double> throughputs, final List<Double> timesNs,
        final boolean verified) {
        this(app, variant, ranks, size, work, sizeLabel, unit, throughputs, timesNs, verified, Rows.RMA4J, null);
    }

    /**
     * @return this measurement as {@code impl}'s.
     */
    AppMeasurement withImpl(final String implementation) {
        return new AppMeasurement(app, variant, ranks, size, work, sizeLabel, unit, throughputs, timesNs, verified,
            implementation, roundMedians);
    }

    /**
     * @return whether {@code other} measures the same cell: implementation, application, variant, ranks, size
     *         and work.
     */
    boolean sameCell(final AppMeasurement other) {
        return impl.equals(other.impl) && app.equals(other.app) && variant.equals(other.variant) && ranks == other.ranks
            && size == other.size && work == other.work;
    }

    /**
     * Keeps, of the measurements of one cell taken in several rounds, the round with the highest median
     * throughput (the best-of rule of the latency part, {@link Harness#bestOfRounds}), with every round's
     * median in {@link #roundMedians} and verified only if every round was; cells in the order first measured.
     */
    static List<AppMeasurement> bestOfRounds(final List<AppMeasurement> everyRound) {
        final List<AppMeasurement> best = new ArrayList<>();
        for (final AppMeasurement m : everyRound) {
            final int at = indexOfCell(best, m);
            if (at < 0) {
                best.add(m);
                continue;
            }
            final AppMeasurement kept = best.get(at);
            final AppMeasurement winner = m.medianThroughput() > kept.medianThroughput() ? m : kept;
            final List<Double> medians = new ArrayList<>(kept.roundMedians);
            medians.addAll(m.roundMedians);
            best.set(at,
                new AppMeasurement(winner.app, winner.variant, winner.ranks, winner.size, winner.work, winner.sizeLabel,
                    winner.unit, winner.throughputs, winner.timesNs, kept.verified && m.verified, winner.impl,
                    medians));
        }
        return List.copyOf(best);
    }

    private static int indexOfCell(final List<AppMeasurement> ms, final AppMeasurement cell) {
        for (int i = 0; i < ms.size(); i++) {
            if (ms.get(i).sameCell(cell)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * @return the median throughput of the repetitions.
     */
    public double medianThroughput() {
        return median(throughputs);
    }

    /**
     * @return the median time per unit of work of the repetitions, in ns.
     */
    public double medianTimeNs() {
        return median(timesNs);
    }

    /**
     * @return the median (the mean of the two middle values for an even count).
     */
    static double median(final List<Double> values) {
        final double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        final int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
