package org.rma4j.bench.harness;

import java.util.List;

/**
 * The rows of the harness and the implementations (columns) that measure them.
 */
public final class Rows {
    /** What a row's values are. */
    public enum Kind {
        /** Half a round trip of a ping-pong, in ns. */
        HALF_ROUND_TRIP,
        /** Time per call, in ns. */
        OPERATION,
        /** Time per transfer of sizeBytes, in ns (bandwidth = size / time). */
        BANDWIDTH,
        /** A cost parameter's raw row ({@link CostScenario}), in ns per call or per half round trip. */
        COST
    }

    /** One row: its id (as in the sample files), kind and what it measures. */
    public record Row(String id, Kind kind, String description) {
    }

    public static final String RMA4J = "rma4j";
    public static final String JAVA_FFM = "java-ffm";
    public static final String C11 = "c11";
    public static final String OPENMPI = "openmpi";
    public static final String MPICH = "mpich";

    /** Implementations in report order. */
    public static final List<String> IMPLS = List.of(RMA4J, JAVA_FFM, C11, OPENMPI, MPICH);

    public static final List<Row> ALL = List.of(
        new Row("floor", Kind.HALF_ROUND_TRIP,
            "two processes ping-pong a flag word and an echoed payload in a "
                + "mapped /dev/shm file (Java: FFM MemorySegment + VarHandle release/acquire; C: memcpy + C11 "
                + "atomics); no library in between"),
        new Row("load-store", Kind.HALF_ROUND_TRIP,
            "the floor's protocol on the partner's part of the shared "
                + "window (rma4j sharedQuery, MPI_Win_shared_query): memcpy + release store of the flag"),
        new Row("lane-protocol", Kind.HALF_ROUND_TRIP,
            "the notification lanes' memory traffic of two ranks written out by hand, no rma4j class: the entry's "
                + "fields and inline payload, a release store of its stamp; the receiver polls the stamp"),
        new Row("notify-lanes", Kind.HALF_ROUND_TRIP,
            "the notification lanes' classes alone (LaneProducer.offer, NotifyLanes.poll in a spin) over a "
                + "mapped file, no rma4j call: up to 32 B inside the entry, more copied into the partner's box "
                + "first; the echo is the same"),
        new Row("notify-lanes-summary", Kind.HALF_ROUND_TRIP,
            "notify-lanes over lanes that poll the summary (the runtime's lanes beyond 8 ranks): each offer also "
                + "rings its lane's doorbell in the summary line, the receiver also polls it"),
        new Row("notified-put", Kind.HALF_ROUND_TRIP,
            "rma4j putNotify + flush, then start + await of a "
                + "notification request (the Notified Access paper's Listing 1); the echo is the same"),
        new Row("counter-put", Kind.HALF_ROUND_TRIP,
            "rma4j putNotifyCounter, then notifyWait of the own counter "
                + "for the round's count (MPI Forum issue 59's notification counters); the echo is the same"),
        new Row("put-flush-flag", Kind.HALF_ROUND_TRIP,
            "inside lock_all: put payload, flush, put an 8-byte "
                + "sequence number into the partner's flag, flush; the receiver polls its own flag (acquire load; "
                + "MPI: + MPI_Win_sync)"),
        new Row("send-recv", Kind.HALF_ROUND_TRIP, "two-sided send + receive of the payload each way"),
        new Row("pscw", Kind.HALF_ROUND_TRIP,
            "start, put, complete, post, wait; the partner: post, wait, start, " + "put back, complete"),
        new Row("fence", Kind.HALF_ROUND_TRIP, "put, fence, fence; the partner: fence, put back, fence"),
        new Row("fetch-and-op", Kind.OPERATION, "fetch_and_op SUM on a long of the partner's window + flush"),
        new Row("compare-and-swap", Kind.OPERATION, "compare_and_swap (always succeeding) on a long + flush"),
        new Row("get", Kind.OPERATION, "get of 8 bytes + flush"),
        new Row("accumulate", Kind.OPERATION, "accumulate of one long (SUM) + flush"),
        new Row("lock-unlock", Kind.OPERATION, "lock (exclusive) + unlock of the partner, uncontended"),
        new Row("barrier", Kind.OPERATION, "barrier of the two ranks (rma4j job barrier, MPI_Barrier)"),
        new Row("put-bw", Kind.BANDWIDTH, "batches of puts of one size into the partner's window, then one flush"),
        new Row("memcpy-bw", Kind.BANDWIDTH,
            "in-process copy of the same size between two private buffers " + "(Java MemorySegment.copy, C memcpy)"),
        new Row("t-init", Kind.COST, "notifyInit of a request (source 1, a tag, count 1), batches of 32"),
        new Row("t-free", Kind.COST, "close of an inactive request, batches of 32"),
        new Row("t-start", Kind.COST,
            "start of an inactive request started and completed before, that nothing matches yet, batches of 32"),
        new Row("t-start-first", Kind.COST, "first start of a request made just before, batches of 32"),
        new Row("t-na", Kind.COST, "putNotify of 8 B to the partner (no flush), batches of 32"),
        new Row("start-await-arrived", Kind.COST,
            "start + await of a request (count 1) whose notification has arrived, 32 in a row"),
        new Row("na-half-round-trip", Kind.COST, "the notified-put ping-pong at 0 B, 8 B, 64 KiB and 1 MiB"));

    private Rows() {
    }

    /**
     * @throws IllegalArgumentException for an unknown row id.
     */
    public static Row row(final String id) {
        return ALL.stream().filter(r -> r.id().equals(id)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("unknown row " + id));
    }

    /**
     * @return the rows of one kind, in report order.
     */
    public static List<Row> ofKind(final Kind kind) {
        return ALL.stream().filter(r -> r.kind() == kind).toList();
    }

    /**
     * @return the implementation a Java rank's row belongs to: the floor and memcpy rows are plain FFM
     *         code, every other row runs through rma4j.
     */
    public static String javaImpl(final String rowId) {
        return rowId.equals("floor") || rowId.equals("memcpy-bw") ? JAVA_FFM : RMA4J;
    }
}
