/**
 * Two-sided messages between the ranks of a job (MPI point-to-point send / receive and a few collectives),
 * built on the public window API: each {@link org.rma4j.messaging.Messaging} object is a shared window with
 * bounce buffers and notified accesses. Public: {@link org.rma4j.messaging.Messaging},
 * {@link org.rma4j.messaging.MessageRequest}, {@link org.rma4j.messaging.MessageStatus}; the engine,
 * layout, transfers and collectives are package-private. The few runtime internals the layer needs (a
 * job's failure record, the peers' liveness, the window's wait strategy) come through
 * {@link org.rma4j.internal.RuntimeAccess}, a non-exported accessor.
 */
package org.rma4j.messaging;
