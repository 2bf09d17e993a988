package org.rma4j.notify;

/**
 * Told when a {@link NotifyRing} consumer gives up a slot whose producer died between claim and publish.
 */
@FunctionalInterface
public interface StuckSlotListener {
    /** A listener that ignores skipped slots. */
    StuckSlotListener NONE = (index, producerId) -> {
    };

    /**
     * Called on the consumer's thread after the slot was given up, before the consumer moves past it.
     *
     * @param index      ring index of the slot given up.
     * @param producerId the producer that claimed it, or {@link ProducerLiveness#UNKNOWN_PRODUCER} when it
     *                   had not recorded itself.
     */
    void onSkipped(long index, int producerId);
}
