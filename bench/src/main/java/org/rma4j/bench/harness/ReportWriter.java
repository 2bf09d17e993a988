package org.rma4j.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Writes a harness run as markdown: the run's circumstances, the side-by-side half-round-trip table
 * (rma4j against the floors, Open MPI and MPICH, with ratios against the Java floor and against Open
 * MPI), the single operations, the bandwidth, the cost parameters ({@link CostReport}), the applications
 * (throughput per variant, with ratios of the notified variant against each other variant and of every
 * variant against the C peers, {@link ApplicationReport}), the sweep ({@link SweepReport}), the loaded
 * section ({@link LoadedReport}), every percentile, what each row measures, and the notes.
 */
public final class ReportWriter {
    /** Shown where a cell has no measurement. */
    static final String NONE = "—";

    /**
     * For each rma4j ping-pong row, the MPI row it is compared with: the notified put has no MPI
     * counterpart, the closest MPI-3 way to move data and tell the target is put + flush + flag.
     */
    static String mpiCounterpart(final String row) {
        return switch (row) {
            case "notified-put", "counter-put", "notify-lanes", "notify-lanes-summary", "lane-protocol" ->
                "put-flush-flag";
            default -> row;
        };
    }

    private ReportWriter() {
    }

    /**
     * @param plots file names of the plots, relative to the markdown file (may be empty).
     */
    public static String markdown(final Results results, final List<String> plots) {
        final StringBuilder md = new StringBuilder();
        final Results.RunInfo info = results.info();
        md.append("# rma4j harness: half round trip, single operations, bandwidth, cost parameters, applications, "
            + "scale, load\n\n");
        if (info.profile() != null) {
            md.append("- profile: ").append(info.profile()).append('\n');
        }
        md.append("- date: ").append(info.date()).append('\n');
        md.append("- machine: ").append(info.machine()).append('\n');
        md.append("- Java: ").append(info.javaVersion()).append('\n');
        md.append(String.format(Locale.ROOT, "- load average (1 min): %.2f at the start, %.2f at the end%n",
            info.loadBefore(), info.loadAfter()));
        md.append("- sizes: ").append(info.sizes()).append(" bytes; ").append(info.iterations())
            .append(" timed round trips (or op batches) per size after ").append(info.warmup()).append(" untimed; ")
            .append(info.bwSamples()).append(" batches per bandwidth size\n");
        md.append("- command: `").append(info.command()).append("`\n");
        if (!info.tools().isEmpty()) {
            md.append("- peer tools: ");
            md.append(String.join(", ",
                info.tools().entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")").toList()));
            md.append('\n');
        }
        md.append('\n');
        probes(md, results);
        sideBySide(md, results);
        singleOps(md, results);
        bandwidth(md, results);
        for (final String plot : plots) {
            if (Plots.isLatencyPlot(plot)) {
                md.append("![").append(plot).append("](").append(plot).append(")\n\n");
            }
        }
        CostReport.write(md, results, Plots.ending(plots, SectionPlots.COSTS));
        ApplicationReport.write(md, results, plots.stream().filter(Plots::isApplicationPlot).toList());
        SweepReport.write(md, results, Plots.ending(plots, SectionPlots.SWEEP));
        LoadedReport.write(md, results, Plots.ending(plots, SectionPlots.LOADED));
        percentiles(md, results);
        rows(md);
        md.append("## Notes\n\n");
        md.append("- All values are nanoseconds. Half round trip = rank 0's time for one round trip / 2; every "
            + "percentile comes from an HdrHistogram DoubleHistogram of the samples (3 significant digits).\n");
        md.append("- MPICH's one-sided calls need the target inside MPI (its receiver polls with MPI_Iprobe "
            + "in put-flush-flag, rank 1 waits in MPI_Barrier in the single operations): its one-sided numbers "
            + "are a reference, not a like-for-like comparison.\n");
        md.append(
            "- † lane-protocol, notify-lanes, notify-lanes-summary, notified-put and counter-put have no MPI-3 counterpart; their MPI columns and its ratio to Open MPI use "
                + "put-flush-flag, the MPI-3 way to move data and tell the target.\n");
        for (final String note : results.notes()) {
            md.append("- ").append(note.replace("\n", "\n  ")).append('\n');
        }
        return md.toString();
    }

    public static void write(final Results results, final Path file, final List<String> plots) {
        try {
            Files.writeString(file, markdown(results, plots));
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static void probes(final StringBuilder md, final Results results) {
        if (results.floorProbesNs().isEmpty()) {
            return;
        }
        md.append("## Floor probes\n\nThe C11 floor at 8 B (median half round trip of ").append(Peers.PROBE_ITERATIONS)
            .append(" round trips), measured right before each scenario. On a shared or virtual machine the floor "
                + "itself moves: read each row against the probe taken before it.\n\n| before | C11 floor 8 B (ns) |\n"
                + "| --- | ---: |\n");
        results.floorProbesNs()
            .forEach((label, ns) -> md.append("| ").append(label).append(" | ").append(ns(ns)).append(" |\n"));
        md.append('\n');
    }

    private static void sideBySide(final StringBuilder md, final Results results) {
        md.append("## Half round trip, side by side (median ns)\n\n");
        md.append("| row | size | rma4j | Java floor | C11 floor | Open MPI | MPICH | rma4j / Java floor "
            + "| rma4j / C11 floor | rma4j / Open MPI |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (final Rows.Row row : Rows.ofKind(Rows.Kind.HALF_ROUND_TRIP)) {
            if (row.id().equals("floor")) {
                continue;
            }
            final String mpiRow = mpiCounterpart(row.id());
            for (final long size : sizes(results, Rows.Kind.HALF_ROUND_TRIP)) {
                final Optional<Measurement> rma = results.find(Rows.RMA4J, row.id(), size);
                final Optional<Measurement> javaFloor = results.find(Rows.JAVA_FFM, "floor", size);
                final Optional<Measurement> cFloor = results.find(Rows.C11, "floor", size);
                final Optional<Measurement> openMpi = results.find(Rows.OPENMPI, mpiRow, size);
                final Optional<Measurement> mpich = results.find(Rows.MPICH, mpiRow, size);
                if (rma.isEmpty() && openMpi.isEmpty() && mpich.isEmpty()) {
                    continue;
                }
                md.append("| ").append(row.id()).append(mpiRow.equals(row.id()) ? "" : " †").append(" | ")
                    .append(size(size)).append(" | ").append(p50(rma)).append(" | ").append(p50(javaFloor))
                    .append(" | ").append(p50(cFloor)).append(" | ").append(p50(openMpi)).append(" | ")
                    .append(p50(mpich)).append(" | ").append(ratio(rma, javaFloor)).append(" | ")
                    .append(ratio(rma, cFloor)).append(" | ").append(ratio(rma, openMpi)).append(" |\n");
            }
        }
        md.append("\nThe floors themselves:\n\n| size | Java floor | C11 floor | Java / C11 |\n"
            + "| ---: | ---: | ---: | ---: |\n");
        for (final long size : sizes(results, Rows.Kind.HALF_ROUND_TRIP)) {
            final Optional<Measurement> javaFloor = results.find(Rows.JAVA_FFM, "floor", size);
            final Optional<Measurement> cFloor = results.find(Rows.C11, "floor", size);
            md.append("| ").append(size(size)).append(" | ").append(p50(javaFloor)).append(" | ").append(p50(cFloor))
                .append(" | ").append(ratio(javaFloor, cFloor)).append(" |\n");
        }
        md.append('\n');
    }

    private static void singleOps(final StringBuilder md, final Results results) {
        md.append("## Single operations, rank 0 to rank 1's window (ns per call: median / p99)\n\n");
        md.append("| operation | rma4j | Open MPI | MPICH | rma4j / Open MPI |\n| --- | ---: | ---: | ---: | ---: |\n");
        for (final Rows.Row row : Rows.ofKind(Rows.Kind.OPERATION)) {
            final Optional<Measurement> rma = results.find(Rows.RMA4J, row.id(), Long.BYTES);
            final Optional<Measurement> openMpi = results.find(Rows.OPENMPI, row.id(), Long.BYTES);
            final Optional<Measurement> mpich = results.find(Rows.MPICH, row.id(), Long.BYTES);
            if (rma.isEmpty() && openMpi.isEmpty() && mpich.isEmpty()) {
                continue;
            }
            md.append("| ").append(row.id()).append(" | ").append(p50p99(rma)).append(" | ").append(p50p99(openMpi))
                .append(" | ").append(p50p99(mpich)).append(" | ").append(ratio(rma, openMpi)).append(" |\n");
        }
        md.append('\n');
    }

    private static void bandwidth(final StringBuilder md, final Results results) {
        md.append("## Bandwidth (GB/s at the median time per transfer)\n\n");
        md.append("| size | rma4j put | Java memcpy | C memcpy | Open MPI put | MPICH put | rma4j put / Java memcpy "
            + "|\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (final long size : sizes(results, Rows.Kind.BANDWIDTH)) {
            final Optional<Measurement> put = results.find(Rows.RMA4J, "put-bw", size);
            final Optional<Measurement> javaCopy = results.find(Rows.JAVA_FFM, "memcpy-bw", size);
            md.append("| ").append(size(size)).append(" | ").append(gbps(put)).append(" | ").append(gbps(javaCopy))
                .append(" | ").append(gbps(results.find(Rows.C11, "memcpy-bw", size))).append(" | ")
                .append(gbps(results.find(Rows.OPENMPI, "put-bw", size))).append(" | ")
                .append(gbps(results.find(Rows.MPICH, "put-bw", size))).append(" | ")
                .append(put.isPresent() && javaCopy.isPresent()
                    ? String.format(Locale.ROOT, "%.2f", put.get().gbPerSecond() / javaCopy.get().gbPerSecond())
                    : NONE)
                .append(" |\n");
        }
        md.append('\n');
    }

    private static void percentiles(final StringBuilder md, final Results results) {
        md.append("## Every measurement (ns)\n\n| impl | row | size | median | p90 | p99 | mean | samples |\n"
            + "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (final String impl : Rows.IMPLS) {
            for (final Rows.Row row : Rows.ALL) {
                for (final Measurement m : results.measurements()) {
                    if (m.impl().equals(impl) && m.row().equals(row.id())) {
                        md.append("| ").append(impl).append(" | ").append(m.row()).append(" | ")
                            .append(size(m.sizeBytes())).append(" | ").append(ns(m.p50Ns())).append(" | ")
                            .append(ns(m.p90Ns())).append(" | ").append(ns(m.p99Ns())).append(" | ")
                            .append(ns(m.meanNs())).append(" | ").append(m.count()).append(" |\n");
                    }
                }
            }
        }
        md.append('\n');
    }

    private static void rows(final StringBuilder md) {
        md.append("## What each row measures\n\n| row | kind | measures |\n| --- | --- | --- |\n");
        for (final Rows.Row row : Rows.ALL) {
            md.append("| ").append(row.id()).append(" | ")
                .append(row.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ')).append(" | ")
                .append(row.description()).append(" |\n");
        }
        md.append('\n');
    }

    private static TreeSet<Long> sizes(final Results results, final Rows.Kind kind) {
        final TreeSet<Long> sizes = new TreeSet<>();
        for (final Measurement m : results.measurements()) {
            if (Rows.row(m.row()).kind() == kind) {
                sizes.add(m.sizeBytes());
            }
        }
        return sizes;
    }

    static String size(final long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }

    static String ns(final double ns) {
        if (ns >= 100) {
            return String.format(Locale.ROOT, "%,.0f", ns).replace(',', ' ');
        }
        return String.format(Locale.ROOT, "%.1f", ns);
    }

    private static String p50(final Optional<Measurement> m) {
        return m.map(x -> ns(x.p50Ns())).orElse(NONE);
    }

    private static String p50p99(final Optional<Measurement> m) {
        return m.map(x -> ns(x.p50Ns()) + " / " + ns(x.p99Ns())).orElse(NONE);
    }

    private static String gbps(final Optional<Measurement> m) {
        return m.map(x -> String.format(Locale.ROOT, "%.2f", x.gbPerSecond())).orElse(NONE);
    }

    /**
     * @return a throughput with about three significant digits: {@code 12 345}, {@code 45.6},
     *         {@code 1.23}, {@code 0.075}.
     */
    static String throughput(final double value) {
        if (value >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", value).replace(',', ' ');
        }
        if (value >= 10) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        if (value >= 1) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        if (value >= 0.01 || value == 0) {
            return String.format(Locale.ROOT, "%.3f", value);
        }
        return String.format(Locale.ROOT, "%.2g", value);
    }

    /**
     * @return a duration in the unit that keeps it readable: {@code 850 ns}, {@code 12.3 us},
     *         {@code 45.6 ms}, {@code 1.23 s}.
     */
    static String duration(final double ns) {
        if (ns >= 1e9) {
            return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
        }
        if (ns >= 1e6) {
            return String.format(Locale.ROOT, "%.1f ms", ns / 1e6);
        }
        if (ns >= 1e3) {
            return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f ns", ns);
    }

    /**
     * @return a ratio with two decimals ({@code 1.25}), three significant digits where two decimals would
     *         hide it ({@code 0.0045}), no decimals from 100 on ({@code 6 500}).
     */
    static String ratio(final double ratio) {
        if (ratio >= 100) {
            return String.format(Locale.ROOT, "%,.0f", ratio).replace(',', ' ');
        }
        if (ratio >= 0.095 || ratio == 0) {
            return String.format(Locale.ROOT, "%.2f", ratio);
        }
        return new java.math.BigDecimal(ratio).round(new java.math.MathContext(2)).toPlainString();
    }

    static String ratio(final Optional<Measurement> numerator, final Optional<Measurement> denominator) {
        if (numerator.isEmpty() || denominator.isEmpty()) {
            return NONE;
        }
        return String.format(Locale.ROOT, "%.2f", numerator.get().p50Ns() / denominator.get().p50Ns());
    }
}
