package org.rma4j;

/**
 * A request of any kind (MPI_Request): {@link RmaRequest} (request-based RMA, MPI-3.1 section 11.3.5),
 * {@link NotifyRequest} (notified access) and {@code org.rma4j.messaging.MessageRequest} (messages). Each kind
 * has its own {@code waitAny} / {@code waitAll}; {@link RmaJob#waitAny(Request...)},
 * {@link RmaJob#waitAll(Request...)} and {@link RmaJob#testAny(Request...)} wait on a mix of kinds in one call,
 * as MPI_WAITANY does on requests of different operations (section 3.7.5).
 */
public interface Request {
    /**
     * MPI_TEST: makes one round of progress if the request is not complete and returns whether it is. What a
     * true result does to the request is its kind's rule (an {@link RmaRequest} is released, a
     * {@link NotifyRequest} becomes inactive until started again).
     *
     * @return whether the request completed.
     */
    boolean test();

    /**
     * @return whether a wait over this request would wait for it; false for MPI's null or inactive requests: a
     *         released {@link RmaRequest}, a {@link NotifyRequest} not started or freed, a message request whose
     *         completion was reported.
     */
    boolean isActive();
}
