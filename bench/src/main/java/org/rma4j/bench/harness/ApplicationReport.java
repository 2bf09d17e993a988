package org.rma4j.bench.harness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import org.rma4j.examples.notified.Sync;

/**
 * The "Applications" section of the report: per application a table of throughput by variant, rank
 * count and size, with the ratio of the notified variant's throughput to every other variant's (the
 * Notified Access paper's claim is that the notified variants beat their send/recv counterparts), a table
 * of every rma4j variant against the C peers on Open MPI ({@link PeerApps}), then the plots and every
 * repetition.
 */
final class ApplicationReport {
    /** The variant whose ratios the tables show, and the baseline named first. */
    static final String NOTIFIED = Sync.NOTIFIED.label();
    static final String BASELINE = Sync.SEND_RECV.label();

    private ApplicationReport() {
    }

    /**
     * Appends the section to {@code md}; nothing if the run has no applications.
     *
     * @param plots the application plots' file names, relative to the report.
     */
    static void write(final StringBuilder md, final Results results, final List<String> plots) {
        if (results.applications().isEmpty()) {
            return;
        }
        final Results.RunInfo info = results.info();
        md.append("## Applications: throughput per synchronization variant (median of the repetitions; higher is "
            + "better)\n\n");
        md.append("The Notified Access paper's applications (section VI), from `org.rma4j.examples.notified`, each "
            + "run as a job of real rank JVMs through the launcher. One job per application, rank count and size "
            + "runs every variant: ")
            .append(info.appWarmupMs() > 0
                ? String.format(Locale.ROOT, "untimed rounds of all variants for at least %.1f s and one round, "
                    + "the C peers too, and rma4j's on while the JIT of a rank compiled for more than 2 %% of the last "
                    + "round, up to %.0f s (the steady state: the first calls of a job are the cold-start report's "
                    + "subject)", info.appWarmupMs() / 1e3, AppMain.WARMUP_LIMIT * info.appWarmupMs() / 1e3)
                : "one untimed round of all variants")
            .append(", then the timed repetitions, each running every variant once, starting one variant later each "
                + "time. Every result was checked by the program (corner value, exact sums, Cholesky residual). "
                + "Ratios divide throughputs: above 1 the notified variant is faster than the variant it is compared "
                + "with.\n\n");
        final int maxRanks = results.applications().stream().mapToInt(AppMeasurement::ranks).max().orElse(0);
        if (info.cpus() > 0) {
            md.append("- ").append(info.cpus()).append(" CPUs. ");
            md.append(maxRanks > info.cpus()
                ? "Jobs of more ranks than CPUs (here up to " + maxRanks + ") time-share the cores: their times "
                    + "include the scheduler's, and a variant that waits by spinning takes the CPU from the rank "
                    + "it waits for.\n"
                : "No job has more ranks than CPUs.\n");
        }
        if (info.rounds() > 0) {
            // NOTE: files without rounds come from before this binding rule: their jobs were all bound.
            md.append("- Ranks are bound to cores (rank i to CPU i) when a job has no more ranks than CPUs, and run "
                + "unbound otherwise, rma4j's as mpirun runs Open MPI's.\n");
        }
        if (info.rounds() > 1) {
            md.append("- Every cell is the best of ").append(info.rounds())
                .append(" rounds: the whole application "
                    + "part ran that many times, and each cell keeps the round with the highest median throughput, for "
                    + "every implementation alike (every round's median is under \"Every application run\").\n");
        }
        md.append("- rank JVM options: ")
            .append(info.appJvmOptions().isEmpty()
                ? "none (rma4j's default waiting: blocked calls spin, yield, then sleep on a futex; the putflush "
                    + "variants poll and never sleep)"
                : "`" + String.join(" ", info.appJvmOptions()) + "`")
            .append("\n\n");
        for (final Application app : Application.values()) {
            final List<AppMeasurement> ms = results.applications(app.id);
            if (!ms.isEmpty()) {
                table(md, results, app, ms);
                againstOpenMpi(md, results, app, ms);
            }
        }
        for (final String plot : plots) {
            md.append("![").append(plot).append("](").append(plot).append(")\n\n");
        }
        everyRun(md, results);
    }

    private static void table(final StringBuilder md, final Results results, final Application app,
        final List<AppMeasurement> ms) {
        final List<String> variants = app.variants.stream().map(Sync::label)
            .filter(v -> ms.stream().anyMatch(m -> m.variant().equals(v))).toList();
        final List<String> compared = new ArrayList<>();
        if (variants.contains(NOTIFIED)) {
            if (variants.contains(BASELINE)) {
                compared.add(BASELINE);
            }
            variants.stream().filter(v -> !v.equals(NOTIFIED) && !v.equals(BASELINE)).forEach(compared::add);
        }
        md.append("### ").append(app.title).append(": ").append(app.unit).append(", ")
            .append(app.workLabel(ms.getFirst().work())).append("\n\n| ranks | size |");
        variants.forEach(v -> md.append(' ').append(v).append(" |"));
        compared.forEach(v -> md.append(' ').append(NOTIFIED).append(" / ").append(v).append(" |"));
        md.append("\n| ---: | ---: |");
        md.append(" ---: |".repeat(variants.size() + compared.size()));
        md.append('\n');
        int faster = 0;
        int cells = 0;
        for (final Problem p : problems(ms)) {
            md.append("| ").append(p.ranks()).append(" | ").append(app.sizeLabel(p.size(), p.work())).append(" |");
            for (final String v : variants) {
                md.append(' ')
                    .append(results.findApplication(app.id, v, p.ranks(), p.size(), p.work())
                        .map(m -> ReportWriter.throughput(m.medianThroughput()) + (m.verified() ? "" : " (FAILED)"))
                        .orElse(ReportWriter.NONE))
                    .append(" |");
            }
            final Optional<AppMeasurement> notified = results.findApplication(app.id, NOTIFIED, p.ranks(), p.size(),
                p.work());
            for (final String v : compared) {
                final Optional<AppMeasurement> other = results.findApplication(app.id, v, p.ranks(), p.size(),
                    p.work());
                md.append(' ').append(ratio(notified, other)).append(" |");
                if (v.equals(BASELINE) && notified.isPresent() && other.isPresent()) {
                    cells++;
                    faster += notified.get().medianThroughput() > other.get().medianThroughput() ? 1 : 0;
                }
            }
            md.append('\n');
        }
        md.append('\n');
        if (cells > 0) {
            md.append(
                String.format(Locale.ROOT, "notified faster than sendrecv in %d of %d cells.%n%n", faster, cells));
        }
    }

    /**
     * The table of every rma4j variant's throughput over the C peer's variants on Open MPI, cell by cell.
     */
    private static void againstOpenMpi(final StringBuilder md, final Results results, final Application app,
        final List<AppMeasurement> ms) {
        if (results.applications(Rows.OPENMPI, app.id).isEmpty()) {
            return;
        }
        final List<String> variants = app.variants.stream().map(Sync::label)
            .filter(v -> ms.stream().anyMatch(m -> m.variant().equals(v))).toList();
        final List<String> peers = PeerApps.variants(app).stream().map(Sync::label)
            .filter(v -> results.applications(Rows.OPENMPI, app.id).stream().anyMatch(m -> m.variant().equals(v)))
            .toList();
        md.append("Against the C peer on Open MPI (").append(app.unit)
            .append("; each rma4j variant's throughput ÷ " + "Open MPI's ").append(String.join(" / ", peers))
            .append(", above 1: rma4j faster):\n\n| ranks | size |");
        peers.forEach(v -> md.append(" Open MPI ").append(v).append(" |"));
        variants.forEach(v -> md.append(" rma4j ").append(v).append(" ÷ Open MPI |"));
        md.append("\n| ---: | ---: |").append(" ---: |".repeat(peers.size() + variants.size())).append('\n');
        for (final Problem p : problems(ms)) {
            md.append("| ").append(p.ranks()).append(" | ").append(app.sizeLabel(p.size(), p.work())).append(" |");
            for (final String v : peers) {
                md.append(' ')
                    .append(results.findApplication(Rows.OPENMPI, app.id, v, p.ranks(), p.size(), p.work())
                        .map(m -> ReportWriter.throughput(m.medianThroughput()) + (m.verified() ? "" : " (FAILED)"))
                        .orElse(ReportWriter.NONE))
                    .append(" |");
            }
            for (final String v : variants) {
                final Optional<AppMeasurement> rma = results.findApplication(app.id, v, p.ranks(), p.size(), p.work());
                md.append(' ').append(String.join(" / ", peers.stream()
                    .map(peer -> ratio(rma,
                        results.findApplication(Rows.OPENMPI, app.id, peer, p.ranks(), p.size(), p.work())))
                    .toList())).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    private static void everyRun(final StringBuilder md, final Results results) {
        md.append("### Every application run\n\n| impl | application | variant | ranks | size | median | unit | "
            + "repetitions | median of each round | median time per unit of work | verified |\n"
            + "| --- | --- | --- | ---: | ---: | ---: | --- | --- | --- | ---: | --- |\n");
        for (final Application app : Application.values()) {
            for (final AppMeasurement m : results.applications().stream().filter(a -> a.app().equals(app.id))
                .toList()) {
                md.append("| ").append(Peers.label(m.impl())).append(" | ").append(m.app()).append(" | ")
                    .append(m.variant()).append(" | ").append(m.ranks()).append(" | ").append(m.sizeLabel())
                    .append(" | ").append(ReportWriter.throughput(m.medianThroughput())).append(" | ").append(m.unit())
                    .append(" | ")
                    .append(String.join(", ", m.throughputs().stream().map(ReportWriter::throughput).toList()))
                    .append(" | ")
                    .append(String.join(", ", m.roundMedians().stream().map(ReportWriter::throughput).toList()))
                    .append(" | ").append(ReportWriter.duration(m.medianTimeNs())).append(" per ").append(app.timeUnit)
                    .append(" | ").append(m.verified() ? "yes" : "FAILED").append(" |\n");
            }
        }
        md.append('\n');
    }

    static String ratio(final Optional<AppMeasurement> numerator, final Optional<AppMeasurement> denominator) {
        if (numerator.isEmpty() || denominator.isEmpty() || denominator.get().medianThroughput() <= 0) {
            return ReportWriter.NONE;
        }
        return ReportWriter.ratio(numerator.get().medianThroughput() / denominator.get().medianThroughput());
    }

    /** One cell row of a table: rank count and problem size. */
    record Problem(int ranks, int size, int work) {
    }

    /**
     * @return the rank counts and sizes measured, by rank count, then size.
     */
    static List<Problem> problems(final List<AppMeasurement> ms) {
        final TreeSet<Problem> problems = new TreeSet<>(
            Comparator.comparingInt(Problem::ranks).thenComparingInt(Problem::size).thenComparingInt(Problem::work));
        ms.forEach(m -> problems.add(new Problem(m.ranks(), m.size(), m.work())));
        return List.copyOf(problems);
    }
}
