/**
 * A distributed mutex from MPI-3 atomic operations: {@link org.rma4j.examples.mcs.McsLock}, the MCS
 * queue lock of section 4.3 of Hoefler et al., "Remote Memory Access Programming in MPI-3" (Listings 2
 * and 3), with its window described by {@link org.rma4j.examples.mcs.McsLayout}, and
 * {@link org.rma4j.examples.mcs.McsLockDemo}, a program that checks it with a non-atomic shared
 * counter.
 *
 * <h2>Promises</h2>
 * At most one rank holds the lock; ranks are granted it in the order their swaps reached the tail;
 * what the holder completed before release is seen by the next holder. Waiting ranks poll a flag in
 * their own window, so a lock hand-over writes one word at one remote rank.
 */
package org.rma4j.examples.mcs;
