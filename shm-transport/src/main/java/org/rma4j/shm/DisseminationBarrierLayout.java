package org.rma4j.shm;

/**
 * Layout of a dissemination barrier for {@code parties} parties, placed at a 128-byte aligned offset of
 * a shared file: one flag per (party, round), each a {@link WaitWords wait word} on its own 128-byte
 * block, so that every flag has exactly one writer and one reader.
 *
 * <pre>
 *   offset + (party * rounds + round) * FLAG_STRIDE:
 *   0                     8                 16                24                    128
 *   +---------------------+-----------------+-----------------+---------------------+
 *   | flag wait word      | token of even   | token of odd    | padding             |
 *   | (int episode,       | episodes (long) | episodes (long) |                     |
 *   |  int sleepers)      |                 |                 |                     |
 *   +---------------------+-----------------+-----------------+---------------------+
 *   rounds = ceil(log2(parties)); flag (p, k) and its tokens are written by party (p - 2^k) mod parties
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
 * <p>Token: before its flag store of episode e, the writer stores the token its caller gave the episode (a
 * collective call word, say) with a plain store into the token of e's parity, in the flag's line; the reader
 * loads it after its flag has reached e: the flag's line, already in its cache. The writer is at most one
 * episode ahead, so it writes the other parity's token meanwhile and e's stays until the reader has moved on.
 *
 * <p>With more parties than the machine has CPUs the region holds a {@link BarrierLayout} at its start instead
 * ({@link DisseminationBarrier}); {@link #length} is never less than that layout for two parties or more.
 */
public final class DisseminationBarrierLayout {
    /** Offset of the flag's wait word in its block. */
    public static final int FLAG_OFFSET = 0;
    /** Offset of the token of even episodes in a flag's block (long); the odd episodes' follows it. */
    public static final int TOKEN_OFFSET = FLAG_OFFSET + 2 * Integer.BYTES;
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
     * @return offset, from a flag's wait word, of its token for {@code episode}.
     */
    public static long tokenOffset(final int episode) {
        return TOKEN_OFFSET - FLAG_OFFSET + (long)(episode & 1) * Long.BYTES;
    }

    /**
     * @return offset, from the barrier's start, of the flag that {@code party} waits on in {@code round}.
     */
    public static long flagOffset(final int parties, final int party, final int round) {
        return ((long)party * rounds(parties) + round) * FLAG_STRIDE + FLAG_OFFSET;
    }
}
