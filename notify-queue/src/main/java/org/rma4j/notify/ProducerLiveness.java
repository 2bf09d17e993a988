package org.rma4j.notify;

import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.IntPredicate;

/**
 * Tells a {@link NotifyRing} consumer whether the producer holding an unpublished slot can still
 * publish it.
 *
 * <p>Return true only for a producer that can make no further store to the ring, e.g. whose process is
 * gone: a slot given up while its producer still writes would receive that producer's late stores.
 * Calls come from the consumer's thread, rate-limited to one per stuck slot and check interval.
 */
@FunctionalInterface
public interface ProducerLiveness {
    /** Producer id passed for a claim whose producer has not recorded itself yet. */
    int UNKNOWN_PRODUCER = -1;

    /** Liveness for rings whose producers never die, or whose death ends the consumer too. */
    ProducerLiveness NEVER_DEAD = producerId -> false;

    /**
     * @param producerId the id a producer recorded in its claim.
     * @return whether that producer is dead.
     */
    boolean isDead(int producerId);

    /**
     * Asked when a slot is claimed but its producer has not recorded itself yet: true lets the consumer
     * give the slot up. Giving up such a slot is safe even if its producer lives: the producer then
     * fails to record itself and claims another slot.
     *
     * @return whether any producer of the ring is dead; false unless overridden.
     */
    default boolean anyDead() {
        return false;
    }

    /**
     * @return a liveness answering {@link #isDead} with {@code isDead} and {@link #anyDead} with {@code anyDead}.
     */
    static ProducerLiveness of(final IntPredicate isDead, final BooleanSupplier anyDead) {
        Objects.requireNonNull(isDead, "isDead");
        Objects.requireNonNull(anyDead, "anyDead");
        return new ProducerLiveness() {
            @Override
            public boolean isDead(final int producerId) {
                return isDead.test(producerId);
            }

            @Override
            public boolean anyDead() {
                return anyDead.getAsBoolean();
            }
        };
    }
}
