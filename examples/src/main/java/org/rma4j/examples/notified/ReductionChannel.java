package org.rma4j.examples.notified;

/**
 * One rank's communication in {@link TreeReduction} for one synchronization variant. A round at a rank
 * with children and a parent:
 * <pre>
 *   partial = own contribution;  addChildren(round, partial);  deliver(round, partial)
 * </pre>
 * (a leaf skips addChildren, the root skips deliver).
 */
interface ReductionChannel extends AutoCloseable {
    /**
     * At a rank with children: blocks until every child's partial sum of {@code round} has arrived and
     * adds each, element by element, into {@code partial}.
     */
    void addChildren(int round, long[] partial);

    /**
     * At a rank other than 0: delivers {@code partial} to the parent.
     */
    void deliver(int round, long[] partial);

    /**
     * Collective: releases the window and requests.
     */
    @Override
    void close();
}
