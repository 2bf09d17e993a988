package org.rma4j.bench.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The cost parameters of the Notified Access paper (Belli and Hoefler, IPDPS 2015): t_init, t_free,
 * t_start and t_na (section V-A, "We now proceed to model the performance of each involved call"), o_r
 * (the receive overhead with a single request in the queue), and L and G of Table I (shared memory), derived
 * from the rows of {@link CostScenario} and shown beside the paper's values (foMPI-NA on a Cray XC30 node,
 * 2015).
 */
final class CostReport {
    /**
     * One parameter: its symbol, what it is, the paper's value (NaN for none), its unit and how the harness
     * measures it.
     */
    record Parameter(String symbol, String meaning, double paper, String unit, String method) {
    }

    static final List<Parameter> PARAMETERS = List.of(
        new Parameter("t_init", "notifyInit (MPI_Notify_init)", 70, "ns",
            "rank 0 makes 32 requests (source 1, a tag, count 1) in a row; time / 32 (row t-init)"),
        new Parameter("t_free", "close of a request (MPI_Request_free)", 40, "ns",
            "rank 0 closes those 32 inactive requests; time / 32 (row t-free)"),
        new Parameter("t_start", "start of a request (MPI_Start)", 8, "ns",
            "rank 0 starts 32 inactive requests, started and completed before, that nothing matches yet; time / 32 "
                + "(row t-start)"),
        new Parameter("t_na", "issuing a notified put, o_s (MPI_Put_notify)", 290, "ns",
            "rank 0 issues 32 putNotify of 8 B to rank 1 without flush; time / 32 (row t-na)"),
        new Parameter("o_r", "receive overhead, one request in the queue", 70, "ns",
            "32 notifications from rank 1 have arrived; rank 0 starts and awaits a request (count 1) for each; "
                + "time / 32 (row start-await-arrived) minus t_start (both start a request started before)"),
        new Parameter("L", "zero-byte latency (Table I, shared memory)", 250, "ns",
            "median half round trip of the notified-put ping-pong (the paper's Listing 1) at 0 B "
                + "(row na-half-round-trip)"),
        new Parameter("G", "time per byte of payload (Table I, shared memory)", 0.08, "ns/B",
            "slope of the notified-put half round trip between its two largest sizes (64 KiB and 1 MiB)"),
        new Parameter("t_start, first", "first start of a request (no value in the paper)", Double.NaN, "ns",
            "rank 0 starts 32 requests made just before, which also lists each with the window's notification "
                + "endpoint; time / 32 (row t-start-first)"));

    private CostReport() {
    }

    /**
     * @return the measured value of every parameter of {@link #PARAMETERS}, in order; empty where its rows
     *         are missing.
     */
    static List<OptionalDouble> values(final Results results) {
        final OptionalDouble init = median(results, "t-init", Long.BYTES);
        final OptionalDouble free = median(results, "t-free", Long.BYTES);
        final OptionalDouble start = median(results, "t-start", Long.BYTES);
        final OptionalDouble na = median(results, "t-na", Long.BYTES);
        final OptionalDouble startAwait = median(results, "start-await-arrived", Long.BYTES);
        final OptionalDouble or = startAwait.isPresent() && start.isPresent()
            ? OptionalDouble.of(startAwait.getAsDouble() - start.getAsDouble())
            : OptionalDouble.empty();
        final List<Measurement> trips = results.measurements().stream()
            .filter(m -> m.impl().equals(Rows.RMA4J) && m.row().equals("na-half-round-trip"))
            .sorted((x, y) -> Long.compare(x.sizeBytes(), y.sizeBytes())).toList();
        final OptionalDouble latency = trips.isEmpty()
            ? OptionalDouble.empty()
            : OptionalDouble.of(trips.getFirst().p50Ns());
        OptionalDouble perByte = OptionalDouble.empty();
        if (trips.size() >= 2) {
            final Measurement small = trips.get(trips.size() - 2);
            final Measurement large = trips.getLast();
            perByte = OptionalDouble.of((large.p50Ns() - small.p50Ns()) / (large.sizeBytes() - small.sizeBytes()));
        }
        return List.of(init, free, start, na, or, latency, perByte, median(results, "t-start-first", Long.BYTES));
    }

    /**
     * Appends the section; nothing if the run has no cost rows.
     *
     * @param plot the costs plot's file name, or null.
     */
    static void write(final StringBuilder md, final Results results, final String plot) {
        final List<OptionalDouble> values = values(results);
        if (values.stream().noneMatch(OptionalDouble::isPresent)) {
            return;
        }
        md.append("## Cost parameters of Notified Access (the paper's section V-A and Table I)\n\n");
        md.append("Measured between two rank JVMs of the latency configuration (busy-spin waits), each per-call "
            + "row the median of its batches of 32 calls; the paper's values are foMPI-NA's on one node of a "
            + "Cray XC30 (2015), shared memory. Ratios above 1: rma4j takes longer.\n\n");
        md.append("| parameter | what | rma4j | paper | rma4j / paper | how it is measured |\n"
            + "| --- | --- | ---: | ---: | ---: | --- |\n");
        for (int i = 0; i < PARAMETERS.size(); i++) {
            final Parameter p = PARAMETERS.get(i);
            final OptionalDouble v = values.get(i);
            md.append("| ").append(p.symbol()).append(" | ").append(p.meaning()).append(" | ")
                .append(v.isPresent() ? format(v.getAsDouble(), p.unit()) : ReportWriter.NONE).append(" | ")
                .append(Double.isNaN(p.paper()) ? ReportWriter.NONE : format(p.paper(), p.unit())).append(" | ")
                .append(ratio(v, p.paper())).append(" | ").append(p.method()).append(" |\n");
        }
        md.append('\n');
        if (plot != null) {
            md.append("![").append(plot).append("](").append(plot).append(")\n\n");
        }
    }

    /**
     * @return (symbol, measured / paper) of every parameter with both, for the plot.
     */
    static List<Object[]> ratios(final Results results) {
        final List<OptionalDouble> values = values(results);
        final List<Object[]> ratios = new ArrayList<>();
        for (int i = 0; i < PARAMETERS.size(); i++) {
            final Parameter p = PARAMETERS.get(i);
            if (values.get(i).isPresent() && !Double.isNaN(p.paper()) && values.get(i).getAsDouble() > 0) {
                ratios.add(new Object[] {p.symbol(), values.get(i).getAsDouble() / p.paper()});
            }
        }
        return ratios;
    }

    private static String format(final double value, final String unit) {
        return unit.equals("ns/B") ? String.format(Locale.ROOT, "%.4f ns/B", value) : ReportWriter.ns(value) + " ns";
    }

    private static String ratio(final OptionalDouble value, final double paper) {
        if (value.isEmpty() || Double.isNaN(paper)) {
            return ReportWriter.NONE;
        }
        return ReportWriter.ratio(value.getAsDouble() / paper);
    }

    private static OptionalDouble median(final Results results, final String row, final long size) {
        final Optional<Measurement> m = results.find(Rows.RMA4J, row, size);
        return m.isPresent() ? OptionalDouble.of(m.get().p50Ns()) : OptionalDouble.empty();
    }
}
