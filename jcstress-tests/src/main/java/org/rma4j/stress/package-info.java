/**
 * jcstress litmus tests of rma4j's ordering, atomicity and wake-up guarantees, and of the seed papers'
 * litmus programs (coreRMA, OOPSLA 2016; "Remote Memory Access Programming in MPI-3", TOPC 2014).
 *
 * <p>One container class per mechanism, one nested {@code @JCStressTest} per operation; each outcome names
 * its interleaving, a catch-all outcome is FORBIDDEN, and where a property has a broken form the broken
 * rungs are graded ACCEPTABLE_INTERESTING (jcstress {@code BasicJMM_06_Causality} style).
 *
 * <p>How the tests run rma4j: every test class starts one thread-mode job of two ranks for the JVM
 * ({@link org.rma4j.stress.RankPair}); actor 1 is rank 0 and actor 2 is rank 1, each calling its own rank's
 * {@link org.rma4j.Window} handles, and the arbiter checks a final state. Every state object gets a slot of
 * its own in the job's windows, initialised by its constructor, so the tests measure ordering and not file
 * creation. Collective or matched calls (fence, barrier, post / start / complete / wait, notification waits)
 * are made once per state by each actor, which pairs them by state because jcstress runs both actors over
 * the same states in the same order (see {@link org.rma4j.stress.FenceOrdering}).
 *
 * <p>The module's README lists every test with the guarantee or figure it covers and the commands.
 */
package org.rma4j.stress;
