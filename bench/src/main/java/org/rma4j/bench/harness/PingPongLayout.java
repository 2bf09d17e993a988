package org.rma4j.bench.harness;

/**
 * Layout of each rank's part of the harness windows (and of each box of the floor's file), the same in
 * the Java ranks and the C peers ({@code bench_common.h}):
 *
 * <pre>
 *   0      +------------------------------+
 *          | flag word (8 B), written by  |  the partner's release store (or put) of the iteration's
 *          | the partner; rest padding    |  sequence number, after the payload
 *   128    +------------------------------+
 *          | fetchAndOp target (8 B)      |
 *   256    +------------------------------+
 *          | compareAndSwap target (8 B)  |
 *   384    +------------------------------+
 *          | get source (8 B)             |
 *   512    +------------------------------+
 *          | accumulate target (8 B)      |
 *   640    +------------------------------+
 *          | padding                      |
 *   1024   +------------------------------+
 *          | data: the payload the        |
 *          | partner puts here            |
 *          +------------------------------+  1024 + largest size
 * </pre>
 *
 * <p>Publication: the payload is written first, then the flag (release store, or put after a flush);
 * the receiver reads the flag with an acquire load and only then the payload. Every word written by a
 * different process or used by a different operation has its own 128-byte block (two cache lines, so
 * the adjacent-line prefetcher does not couple them).
 */
public final class PingPongLayout {
    public static final long FLAG_OFFSET = 0;
    public static final long FETCH_OFFSET = 128;
    public static final long CAS_OFFSET = 256;
    public static final long GET_OFFSET = 384;
    public static final long ACCUMULATE_OFFSET = 512;
    public static final long DATA_OFFSET = 1024;

    private PingPongLayout() {
    }

    /**
     * @return bytes of one rank's part for payloads up to {@code maxSizeBytes}.
     */
    public static long partBytes(final long maxSizeBytes) {
        return DATA_OFFSET + ((maxSizeBytes + 127) / 128) * 128;
    }
}
