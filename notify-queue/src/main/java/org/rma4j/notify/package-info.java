/**
 * Transport and matching of notifications for Notified Access (Belli and Hoefler, "Notified Access",
 * sections III and IV.C): a put that also hands its target a tagged notification.
 *
 * <p>{@link org.rma4j.notify.NotifyRing} is a bounded multi-producer single-consumer ring of one-cache-line
 * entries that lives in shared memory ({@link org.rma4j.notify.NotifyRingLayout}); producers in any process
 * that maps the ring's file offer, one consumer polls. An entry carries source, tag, displacement, length,
 * flags and up to 32 bytes of inline payload. {@link org.rma4j.notify.Matcher} is the consumer's in-process
 * unexpected queue, matching (source or wildcard, tag or wildcard) to the oldest arrival.
 *
 * <p>{@link org.rma4j.notify.NotifyLanes} is the ring's successor with the same consumer methods: one
 * single-producer lane per origin ({@link org.rma4j.notify.LaneProducer}) and a summary line of doorbells
 * ({@link org.rma4j.notify.NotifyLanesLayout}); a producer publishes with release stores only, no CAS and, where
 * membarrier is supported, no fence; per-origin FIFO, no order across origins.
 *
 * <p>Nothing here knows the one-sided programming model built on top: a "producer id" identifies a party
 * for liveness, a "source" and a "tag" are just matched.
 *
 * <h2>Memory order</h2>
 * Pairing rule: a producer writes an entry with plain stores and publishes it with a release store of the
 * entry's sequence word; the consumer reads that word with an acquire load and only then the entry, so
 * everything the producer stored before {@code offer} returned true is visible to the handler receiving the
 * entry. The consumer frees slots with a release store of the consumer index, which producers read with an
 * acquire load before reusing a slot, so a slot is never overwritten while its handler reads it. Claims are
 * CASes of the producer index; claim and skip marks are CASes of the sequence word.
 *
 * <h2>Back-pressure</h2>
 * A full ring is reported to the producer ({@code offer} returns false), never waited for inside the ring,
 * so no cycle of full rings can deadlock: a party that must deliver a notification into a full ring keeps
 * draining its own ring (into its {@code Matcher}) while it retries, which lets every other party's offers
 * into its ring, and so their own draining, progress.
 *
 * <h2>Waiting and dead producers</h2>
 * An idle consumer sleeps on its ring's signal word ({@link org.rma4j.notify.NotifyRing#awaitNotEmpty});
 * producers signal it at no system-call cost unless it announced itself sleeping. A producer that dies
 * between claiming and publishing a slot would stop the consumer at that slot forever; the consumer gives such
 * a slot up when a {@link org.rma4j.notify.ProducerLiveness} says its claimer is dead, and reports it.
 */
package org.rma4j.notify;
