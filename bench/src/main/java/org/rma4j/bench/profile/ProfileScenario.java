package org.rma4j.bench.profile;

import java.util.List;
import java.util.Locale;
import org.rma4j.bench.harness.Rows;

/**
 * A scenario the profiling step runs: a Java scenario of the harness's latency part at one payload size
 * ({@code notified-put}, {@code notified-put:64}: a job of 2 ranks, its figure the median half round trip), one
 * single operation of its {@code ops} scenario ({@code lock-unlock}: rank 0 calls it in a loop, rank 1 idle
 * except for {@code barrier}; its figure the median ns per call) or one row of the throughput and scale sweep at
 * one rank count ({@code fan-in-messaging@8}: its figure messages per second for a fan-in row, ns per call for
 * fence and barrier), with the target of issue 18 and
 * the cells of a harness report it is compared with.
 *
 * @param id        the name on the command line.
 * @param kind      {@code latency}, {@code operation} or {@code sweep}.
 * @param row       the harness row (latency scenario id, single-operation row id or sweep row id).
 * @param ranks     processes of the job.
 * @param size      payload bytes of a latency scenario (8 for a single operation or a sweep row).
 * @param target    the target, in words.
 * @param baselines the cells of a harness report shown beside the figure, the first the same row's.
 */
public record ProfileScenario(String id, String kind, String row, int ranks, int size, String target,
    List<Baseline> baselines) {

    /** The latency scenarios that can be profiled. */
    static final List<String> LATENCY_ROWS = List.of("notified-put", "counter-put", "put-flush-flag", "send-recv",
        "load-store", "pscw", "fence");
    /** The single operations that can be profiled: the rows of the harness's {@code ops} scenario. */
    static final List<String> OPERATION_ROWS = Rows.ofKind(Rows.Kind.OPERATION).stream().map(Rows.Row::id).toList();
    /** The sweep rows that can be profiled. */
    static final List<String> SWEEP_ROWS = List.of("fan-in-notified", "fan-in-notified-batch", "fan-in-messaging",
        "fence", "barrier");
    /** The scenarios profiled by default: the targets of the one-node comparison missed in the last report. */
    static final List<String> DEFAULTS = List.of("notified-put", "notified-put:64", "notified-put:1024", "counter-put",
        "send-recv", "send-recv:64", "send-recv:1024", "lock-unlock", "fan-in-messaging@8");

    /**
     * A cell of a harness results file: a latency or single-operation measurement (impl, row, size; its median)
     * or a sweep measurement (impl, row, ranks; its median).
     *
     * @param label what the report calls it.
     * @param impl  the implementation ({@code rma4j}, {@code java-ffm}, {@code openmpi}).
     * @param row   the row.
     * @param key   the size in bytes (latency) or the rank count (sweep).
     */
    public record Baseline(String label, String impl, String row, long key) {
    }

    /**
     * @return the scenario named {@code id}: {@code ROW[:SIZE]} for a latency scenario, {@code ROW} for a single
     *         operation, {@code ROW@RANKS} for a sweep row.
     * @throws IllegalArgumentException for an unknown row, size or rank count.
     */
    public static ProfileScenario of(final String id) {
        final int at = id.indexOf('@');
        if (at >= 0) {
            final String row = id.substring(0, at);
            final int ranks = positive(id, id.substring(at + 1));
            if (!SWEEP_ROWS.contains(row) || ranks < 2) {
                throw new IllegalArgumentException(
                    "unknown sweep scenario " + id + "; known: ROW@RANKS, RANKS >= 2, ROW " + "one of " + SWEEP_ROWS);
            }
            return sweep(id, row, ranks);
        }
        if (OPERATION_ROWS.contains(id)) {
            return new ProfileScenario(id, "operation", id, 2, Long.BYTES, "<= Open MPI's same operation",
                List.of(new Baseline("rma4j " + id, "rma4j", id, Long.BYTES),
                    new Baseline("Open MPI " + id, "openmpi", id, Long.BYTES)));
        }
        final int colon = id.indexOf(':');
        final String row = colon < 0 ? id : id.substring(0, colon);
        final int size = colon < 0 ? 8 : positive(id, id.substring(colon + 1));
        if (!LATENCY_ROWS.contains(row)) {
            throw new IllegalArgumentException("unknown latency scenario " + id + "; known: ROW[:SIZE], ROW one of "
                + LATENCY_ROWS + ", a single operation, one of " + OPERATION_ROWS + ", or a sweep row ROW@RANKS, ROW "
                + "one of " + SWEEP_ROWS);
        }
        return latency(id, row, size);
    }

    private static ProfileScenario latency(final String id, final String row, final int size) {
        final Baseline same = new Baseline("rma4j " + row, "rma4j", row, size);
        final Baseline floor = new Baseline("Java flag floor", "java-ffm", "floor", size);
        return switch (row) {
            case "notified-put",
                "counter-put" -> new ProfileScenario(id, "latency", row, 2, size,
                    "<= 1.3x the Java flag floor at 8 B, below rma4j put + flush + flag at 8 B, 64 B and 1 KiB",
                    List.of(same, floor, new Baseline("rma4j put + flush + flag", "rma4j", "put-flush-flag", size)));
            case "send-recv" ->
                new ProfileScenario(id, "latency", row, 2, size, "<= Open MPI send / recv at 8 B, 64 B and 1 KiB",
                    List.of(same, new Baseline("Open MPI send / recv", "openmpi", "send-recv", size), floor));
            default -> new ProfileScenario(id, "latency", row, 2, size, "<= Open MPI's same row",
                List.of(same, new Baseline("Open MPI " + row, "openmpi", row, size), floor));
        };
    }

    private static ProfileScenario sweep(final String id, final String row, final int ranks) {
        final Baseline same = new Baseline("rma4j " + row, "rma4j", row, ranks);
        if (row.startsWith("fan-in")) {
            return new ProfileScenario(id, "sweep", row, ranks, 8,
                ">= Open MPI send / recv(ANY_SOURCE) messages per second at 2, 4 and 8 ranks",
                List.of(same, new Baseline("Open MPI send / recv(ANY_SOURCE)", "openmpi", "fan-in-sendrecv", ranks)));
        }
        return new ProfileScenario(id, "sweep", row, ranks, 8, "<= Open MPI's " + row + " at 2, 4 and 8 ranks",
            List.of(same, new Baseline("Open MPI " + row, "openmpi", row, ranks)));
    }

    private static int positive(final String id, final String number) {
        try {
            final int value = Integer.parseInt(number);
            if (value > 0) {
                return value;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("scenario " + id + ": " + number + " is no positive number");
    }

    /** @return whether the figure is a rate (messages per second; higher is better) rather than ns. */
    public boolean rate() {
        return kind.equals("sweep") && row.startsWith("fan-in");
    }

    /** @return the unit of the figure. */
    public String unit() {
        if (rate()) {
            return "messages/s";
        }
        return kind.equals("latency") ? "ns half round trip" : "ns per call";
    }

    /** @return a heading: the row, its size or rank count. */
    public String title() {
        return switch (kind) {
            case "latency" -> String.format(Locale.ROOT, "%s, %d B, 2 ranks", row, size);
            case "operation" -> String.format(Locale.ROOT, "%s, rank 0 to rank 1's window", row);
            default -> String.format(Locale.ROOT, "%s, %d ranks", row, ranks);
        };
    }

    /** @return a file name part for this scenario. */
    public String slug() {
        return id.replaceAll("[^A-Za-z0-9-]", "_");
    }
}
