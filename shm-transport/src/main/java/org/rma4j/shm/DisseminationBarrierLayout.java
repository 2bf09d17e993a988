package org.rma4j.shm;

/**
 * Layout of a dissemination barrier for {@code parties} parties, placed at a 128-byte aligned offset of
 * a shared file: one flag per (party, round), each a {@link WaitWords wait word} on its own 128-byte
 * block, so that every flag has exactly one writer and one reader.
 *
 * <pre>
 *   offset + (party * rounds + round) * FLAG_STRIDE:
 *   0                     8                                      128
 *   +---------------------+----------------------------------------+
 *   | flag wait word      | padding                                |
 *   | (int episode,       |                                        |
 *   |  int sleepers)      |                                        |
 *   +---------------------+----------------------------------------+
 *   rounds = ceil(log2(parties)); flag (p, k) is written by party (p - 2^k) mod parties
 * </pre>
 *
 * Publication rule (Hensgen, Finkel and Manber's dissemination barrier, with episode numbers in place of
 * sense bits): in episode e, round k, party p stores e into flag ((p + 2^k) mod parties, k) with a
 * volatile store and wakes its sleepers; flag (p, k) has that one writer and one reader, party p, which
 * waits with volatile loads until its own flag (p, k) has reached e. Each barrier call begins and ends with
 * a full fence, so stores before it are seen by loads after it. The flags start at 0 (a zeroed file).
 * A writer is never more than one episode ahead of the flag's reader (finishing episode e needs every
 * party to have entered it), so "reached" is {@code flag - e >= 0}, which also holds across int
 * wrap-around.
 *
 * <p>With more parties than the machine has CPUs the region holds a {@link BarrierLayout} at its start instead
 * ({@link DisseminationBarrier}); {@link #length} is never less than that layout for two parties or more.
 */
public final class DisseminationBarrierLayout {
    /** Offset of the flag's wait word in its block. */
    public static final int FLAG_OFFSET = 0;
    /** Bytes between two flags: a line pair, so no two flags (two writers) share one. */
    public static final int FLAG_STRIDE = Align.PAD;

    private DisseminationBarrierLayout() {
    }

    /**
     * @return rounds of a barrier of {@code parties} parties: ceil(log2(parties)), 0 for one party.
     */
    public static int rounds(final int parties) {
        if (parties < 1) {
            throw new IllegalArgumentException("parties=" + parties + " must be >= 1");
        }
        return 32 - Integer.numberOfLeadingZeros(parties - 1);
    }

    /**
     * @return bytes the barrier of {@code parties} parties occupies (at least one block).
     */
    public static long length(final int parties) {
        // NOTE: at least a BarrierLayout, which DisseminationBarrier uses instead with more parties than CPUs.
        return Math.max(parties > 1 ? BarrierLayout.LENGTH : FLAG_STRIDE,
            (long)parties * rounds(parties) * FLAG_STRIDE);
    }

    /**
     * @return offset, from the barrier's start, of the flag that {@code party} waits on in {@code round}.
     */
    public static long flagOffset(final int parties, final int party, final int round) {
        return ((long)party * rounds(parties) + round) * FLAG_STRIDE + FLAG_OFFSET;
    }
}
