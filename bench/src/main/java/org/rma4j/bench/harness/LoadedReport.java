package org.rma4j.bench.harness;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The report's loaded section ({@link LoadedSection}): the PingPong example's send/recv and notified half
 * round trips with default settings beside Open MPI's send/recv ping-pong, without background load and
 * beside N busy processes, with ratios to Open MPI's.
 */
final class LoadedReport {
    /** The rma4j rows of the section, each compared with Open MPI's send-recv. */
    static final List<String> RMA4J_ROWS = List.of("send-recv", "notified-put");

    private LoadedReport() {
    }

    /**
     * Appends the section; nothing if the run has no loaded ping-pongs.
     *
     * @param plot the loaded plot's file name, or null.
     */
    static void write(final StringBuilder md, final Results results, final String plot) {
        if (results.loaded().isEmpty()) {
            return;
        }
        final Results.RunInfo info = results.info();
        md.append("## Ping-pong on a loaded machine (half round trip)\n\n");
        md.append(String.format(Locale.ROOT, "Each implementation with its default settings, %d timed round trips "
            + "after as many untimed ones (a warm JIT; the first calls are the cold-start report's subject), first alone, then beside %d CPU-bound processes (`while :; do :; "
            + "done`; started before the step, killed after it) on %d CPUs; each cell's median the best of %d rounds "
            + "(the lowest), as in the latency part, and its mean the highest of them (the rare long round trips, a "
            + "rank waiting for a CPU, show in the mean). rma4j: the PingPong example of "
            + "`org.rma4j.examples.notified` as `rmarun` starts it (no JVM option; rmarun's default binding, as "
            + "mpirun's: 2 ranks pinned to cores). Open MPI: MPI_Send / MPI_Recv under mpirun (ob1 / vader; mpirun "
            + "binds 2 ranks to cores). Ratios: rma4j's median ÷ Open MPI's send / recv median in the same "
            + "conditions (below 1: rma4j faster).%n%n", info.loadedIterations(), info.backgroundLoad(), info.cpus(),
            info.rounds()));
        md.append("| busy processes | size | rma4j send / recv | rma4j notified put | Open MPI send / recv | "
            + "rma4j send / recv ÷ Open MPI | rma4j notified ÷ Open MPI | mean: rma4j send / recv | "
            + "rma4j notified put | Open MPI send / recv |\n"
            + "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (final int load : new TreeSet<>(
            results.loaded().stream().map(LoadedMeasurement::backgroundLoad).toList())) {
            for (final long size : new TreeSet<>(
                results.loaded().stream().map(LoadedMeasurement::sizeBytes).toList())) {
                final Optional<LoadedMeasurement> mpi = results.findLoaded(Rows.OPENMPI, "send-recv", size, load);
                md.append("| ").append(load).append(" | ").append(ReportWriter.size(size)).append(" |");
                for (final String row : RMA4J_ROWS) {
                    md.append(' ').append(time(results.findLoaded(Rows.RMA4J, row, size, load))).append(" |");
                }
                md.append(' ').append(time(mpi)).append(" |");
                for (final String row : RMA4J_ROWS) {
                    md.append(' ').append(ratio(results.findLoaded(Rows.RMA4J, row, size, load), mpi)).append(" |");
                }
                for (final String row : RMA4J_ROWS) {
                    md.append(' ').append(mean(results.findLoaded(Rows.RMA4J, row, size, load))).append(" |");
                }
                md.append(' ').append(mean(mpi)).append(" |");
                md.append('\n');
            }
        }
        md.append('\n');
        if (plot != null) {
            md.append("![").append(plot).append("](").append(plot).append(")\n\n");
        }
    }

    private static String time(final Optional<LoadedMeasurement> m) {
        return m.map(x -> ReportWriter.duration(x.medianNs())).orElse(ReportWriter.NONE);
    }

    private static String mean(final Optional<LoadedMeasurement> m) {
        return m.filter(x -> x.meanNs() > 0).map(x -> ReportWriter.duration(x.meanNs())).orElse(ReportWriter.NONE);
    }

    static String ratio(final Optional<LoadedMeasurement> numerator, final Optional<LoadedMeasurement> denominator) {
        if (numerator.isEmpty() || denominator.isEmpty() || denominator.get().medianNs() <= 0) {
            return ReportWriter.NONE;
        }
        return ReportWriter.ratio(numerator.get().medianNs() / denominator.get().medianNs());
    }
}
