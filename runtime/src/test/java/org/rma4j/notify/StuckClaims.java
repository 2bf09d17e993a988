package org.rma4j.notify;

/**
 * Fault injection for the runtime's reliability tests: stops a producer of a {@link NotifyRing} between
 * the steps of {@code offer}, so that its process can be killed while it holds a claimed, unpublished
 * slot. Test scope only; it lives in the ring's package to reach the package-private steps
 * ({@code claimIndex}, {@code recordClaim}), as the notify-queue module's {@code StuckSlotsTest} does.
 */
public final class StuckClaims {
    private StuckClaims() {
    }

    /**
     * The first two steps of an offer: claims the next index and records this instance's producer id in
     * its slot, and never writes or publishes the entry.
     *
     * @return the claimed index, or -1 if the ring is full.
     */
    public static long claimAndRecord(final NotifyRing ring) {
        while (true) {
            final long index = ring.claimIndex();
            if (index < 0) {
                return -1;
            }
            if (ring.recordClaim(index)) {
                return index;
            }
            // the consumer gave this claim up first: claim again, as offer does
        }
    }

    /**
     * Only the first step of an offer: claims the next index by the CAS of the producer index, and leaves
     * the slot without the claimer's id (the window in which a producer is anonymous to the consumer).
     *
     * @return the claimed index, or -1 if the ring is full.
     */
    public static long claimOnly(final NotifyRing ring) {
        final long index = ring.claimIndex();
        return index < 0 ? -1 : index;
    }
}
