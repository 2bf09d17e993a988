/**
 * Shared-memory building blocks for processes on one cache-coherent machine: job directories and
 * files mapped with {@link java.lang.foreign}, layout descriptors for the records in them, atomic
 * accessors whose memory order is part of their name, a futex-backed waiting strategy, a
 * sense-reversing barrier and peer liveness checks.
 *
 * <p>Nothing here knows the MPI vocabulary; the runtime module builds the one-sided model on top.
 *
 * <h2>Space</h2>
 * {@link org.rma4j.shm.MappedFile#create} reserves all the storage of a new file before mapping it, so a
 * store into a mapping never faults for want of space: a file that does not fit fails at creation with
 * {@link org.rma4j.shm.ShmSpaceException}, which carries the directory and the bytes asked and free.
 *
 * <h2>Memory order</h2>
 * {@link org.rma4j.shm.Words} offers plain, acquire / release, volatile and atomic read-modify-write
 * accessors on a {@link java.lang.foreign.MemorySegment}. The pairing rule is the JMM's: a value
 * published with a {@code *Release} or {@code *Volatile} store (or an atomic read-modify-write) is
 * seen together with every store that preceded it by a thread or process that reads it with a
 * {@code *Acquire} or {@code *Volatile} load. Across processes the same holds because both sides
 * compile to the same hardware instructions on a shared mapping of one file.
 *
 * <h2>Blocking</h2>
 * Every wait goes through {@link org.rma4j.shm.WaitStrategy}: it spins briefly, then yields, then
 * sleeps on a futex on the awaited word; writers wake sleepers only when a sleeper announced itself
 * in the word's companion counter (see {@link org.rma4j.shm.WaitWords}). A sleeper wakes at least
 * every {@link org.rma4j.shm.WaitStrategy#LIVENESS_PERIOD_NS} nanoseconds to check that the peers
 * it depends on are alive and throws {@link org.rma4j.shm.PeerFailedException} otherwise.
 */
package org.rma4j.shm;
