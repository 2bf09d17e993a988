/**
 * JMH benchmarks of rma4j in one JVM: the cost per call of the one-sided operations, the flush and
 * sync calls, the atomics, the lock calls and the active-target cycles (fence, post-start-complete-wait).
 *
 * <p>Every benchmark runs a thread-mode job of two ranks ({@link org.rma4j.bench.jmh.TwoRankJob}): the
 * benchmark thread is rank 0 and targets rank 1, whose thread waits idle on a latch for the whole
 * trial, or, for the cycles in which both ranks must take part, runs the matching side of each cycle
 * in a loop. The job uses {@link org.rma4j.WaitOptions#busySpin()}, so a waiting rank never
 * sleeps in the kernel and the cycles measure the shared-memory handshake, not futex wake-ups.
 *
 * <p>Every class forks with {@link org.rma4j.bench.jmh.BenchJvm#NATIVE_ACCESS} (rma4j maps files
 * through the FFM API) and {@link org.rma4j.bench.jmh.BenchJvm#AGRONA_EXPORTS}.
 */
package org.rma4j.bench.jmh;
