package org.rma4j.bench.harness;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The report's throughput and scale section ({@link Sweeps}): the fan-in rates of every rma4j way beside
 * Open MPI's send / recv(ANY_SOURCE), and fence and barrier beside MPI_Win_fence and MPI_Barrier, at every
 * rank count, each cell the median of the runs, with its ratio to Open MPI's.
 */
final class SweepReport {
    private SweepReport() {
    }

    /**
     * Appends the section; nothing if the run has no sweep.
     *
     * @param plot the sweep plot's file name, or null.
     */
    static void write(final StringBuilder md, final Results results, final String plot) {
        if (results.sweeps().isEmpty()) {
            return;
        }
        final Results.RunInfo info = results.info();
        final List<Integer> ranks = List
            .copyOf(new TreeSet<>(results.sweeps().stream().map(SweepMeasurement::ranks).toList()));
        md.append("## Throughput and scale: fan-in, fence, barrier (median of ").append(info.sweepRuns())
            .append(" runs)\n\n");
        md.append(String.format(Locale.ROOT, "Each run: an untimed pass, then a timed pass of the same count "
            + "(fan-in: the consumer receives about %s messages of 8 B per pass, split evenly over the other ranks, "
            + "each sending a multiple of %d; fence and barrier: %s calls per pass at 2 ranks, 2 / n of that at n "
            + "ranks, so that a pass lasts long enough that a compilation of the JIT's, which takes a core from a "
            + "spinning rank for milliseconds, does not set its time), rank 0's time. Default "
            + "settings on both sides: rma4j's ranks without JVM options (blocked calls spin, yield, then sleep), "
            + "Open MPI 4.1.4 with ob1 / vader / osc sm as mpirun starts it. Ranks are bound to cores when there are "
            + "no more of them than CPUs (%d here), and run unbound otherwise, as mpirun does.%n%n",
            grouped(info.sweepMessages()), Sweeps.BATCH, grouped(info.sweepCalls()), info.cpus()));
        md.append("### Fan-in to one consumer: messages per second (rma4j ÷ Open MPI's send / recv; above 1: rma4j "
            + "faster)\n\n| way |");
        ranks.forEach(r -> md.append(' ').append(r).append(" ranks |"));
        md.append("\n| --- |").append(" ---: |".repeat(ranks.size())).append('\n');
        for (final Sweeps.Row row : Sweeps.ROWS.stream().filter(Sweeps.Row::fanIn).toList()) {
            final String impl = row.id().equals(Sweeps.FAN_IN_REFERENCE) ? Rows.OPENMPI : Rows.RMA4J;
            md.append("| ").append(row.label()).append(" |");
            for (final int r : ranks) {
                final Optional<SweepMeasurement> m = results.findSweep(impl, row.id(), r);
                final Optional<SweepMeasurement> reference = results.findSweep(Rows.OPENMPI, Sweeps.FAN_IN_REFERENCE,
                    r);
                md.append(' ').append(m.map(x -> rate(x.perSecond())).orElse(ReportWriter.NONE));
                if (m.isPresent() && reference.isPresent() && !impl.equals(Rows.OPENMPI)) {
                    md.append(" (").append(ReportWriter.ratio(m.get().perSecond() / reference.get().perSecond()))
                        .append("x)");
                }
                md.append(" |");
            }
            md.append('\n');
        }
        md.append("\n### Fence and barrier: ns per call, rma4j / Open MPI (ratio; below 1: rma4j faster)\n\n| call |");
        ranks.forEach(r -> md.append(' ').append(r).append(" ranks |"));
        md.append("\n| --- |").append(" ---: |".repeat(ranks.size())).append('\n');
        for (final Sweeps.Row row : Sweeps.ROWS.stream().filter(r -> !r.fanIn()).toList()) {
            md.append("| ").append(row.label()).append(" |");
            for (final int r : ranks) {
                final Optional<SweepMeasurement> rma = results.findSweep(Rows.RMA4J, row.id(), r);
                final Optional<SweepMeasurement> mpi = results.findSweep(Rows.OPENMPI, row.id(), r);
                md.append(' ').append(rma.map(x -> ReportWriter.ns(x.medianNs())).orElse(ReportWriter.NONE))
                    .append(" / ").append(mpi.map(x -> ReportWriter.ns(x.medianNs())).orElse(ReportWriter.NONE));
                if (rma.isPresent() && mpi.isPresent()) {
                    md.append(" (").append(ReportWriter.ratio(rma.get().medianNs() / mpi.get().medianNs()))
                        .append("x)");
                }
                md.append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
        if (plot != null) {
            md.append("![").append(plot).append("](").append(plot).append(")\n\n");
        }
        everyRun(md, results);
    }

    private static void everyRun(final StringBuilder md, final Results results) {
        md.append("### Every sweep run (ns per message or call)\n\n| impl | row | ranks | runs | median | what |\n"
            + "| --- | --- | ---: | --- | ---: | --- |\n");
        for (final Sweeps.Row row : Sweeps.ROWS) {
            for (final SweepMeasurement m : results.sweeps()) {
                if (m.row().equals(row.id())) {
                    md.append("| ").append(Peers.label(m.impl())).append(" | ").append(m.row()).append(" | ")
                        .append(m.ranks()).append(" | ")
                        .append(String.join(", ", m.runsNs().stream().map(ReportWriter::ns).toList())).append(" | ")
                        .append(ReportWriter.ns(m.medianNs())).append(" | ").append(row.description()).append(" |\n");
                }
            }
        }
        md.append('\n');
    }

    /**
     * @return {@code value} with its thousands separated by spaces: {@code 200 000}.
     */
    static String grouped(final long value) {
        return String.format(Locale.ROOT, "%,d", value).replace(',', ' ');
    }

    /**
     * @return a rate in messages per second: {@code 16.4 M}, {@code 850 k}.
     */
    static String rate(final double perSecond) {
        if (perSecond >= 1e6) {
            return String.format(Locale.ROOT, "%.2f M", perSecond / 1e6);
        }
        return String.format(Locale.ROOT, "%.0f k", perSecond / 1e3);
    }
}
