/**
 * Transport and matching of notifications for Notified Access (Belli and Hoefler, "Notified Access",
 * sections III and IV.C): a put that also hands its target a tagged notification.
 *
 * <p>{@link org.rma4j.notify.NotifyLanes} is one consumer's set of bounded single-producer lanes of
 * one-cache-line entries in shared memory ({@link org.rma4j.notify.NotifyLanesLayout}), one lane per origin,
 * with a summary line of doorbells that the consumer polls; {@link org.rma4j.notify.LaneProducer} is an
 * origin's producer of its lane, in any process that maps the file. An entry carries source, tag,
 * displacement, length, flags and up to 32 bytes of inline payload. {@link org.rma4j.notify.Matcher} is the
 * consumer's in-process unexpected queue, matching (source or wildcard, tag or wildcard) to the oldest
 * delivered notification.
 *
 * <p>Nothing here knows the one-sided programming model built on top: a "source" and a "tag" are just
 * matched, a "displacement" and "length" carried.
 *
 * <h2>Memory order</h2>
 * Pairing rule: a producer writes an entry with plain stores and publishes it with a release store of the
 * entry's stamp, then of its lane's doorbell; the consumer reads one of them with an acquire load and only
 * then the entry, so everything the producer stored before {@code offer} returned true is visible to the
 * handler receiving the entry. The consumer frees slots with a release store of the lane's head, which the
 * producer reads with an acquire load before reusing a slot, so a slot is never overwritten while its handler
 * reads it. No read-modify-write on the producer's path.
 *
 * <h2>Order</h2>
 * Each lane is FIFO, so one origin's notifications are delivered in the order it offered them; across lanes
 * the consumer delivers them in the order it finds them (no global order, as in MPI).
 *
 * <h2>Back-pressure</h2>
 * A full lane is reported to the producer ({@code offer} returns false), never waited for inside the lanes,
 * so no cycle of full lanes can deadlock: a party that must deliver a notification into a full lane keeps
 * draining its own lanes (into its {@code Matcher}) while it retries, which lets every other party's offers
 * into its lanes, and so their own draining, progress.
 *
 * <h2>Waiting and dead producers</h2>
 * An idle consumer sleeps on its signal word ({@link org.rma4j.notify.NotifyLanes#awaitNotEmpty}); producers
 * signal it at no system-call cost unless it announced itself sleeping, without a fence where membarrier lets
 * the sleeping consumer take the fence's part. A producer that dies before publishing leaves nothing visible
 * and holds no other lane up: there is no claim to give up.
 */
package org.rma4j.notify;
