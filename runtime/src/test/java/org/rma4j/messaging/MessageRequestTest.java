package org.rma4j.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The static completion calls of {@link MessageRequest} on arrays without active requests; requests
 * in flight are covered by {@link MessagingContractTest}.
 */
class MessageRequestTest {
    @Test
    void shouldReturnMinusOneFromWaitAnyWithoutActiveRequests() {
        assertEquals(-1, MessageRequest.waitAny());
        assertEquals(-1, MessageRequest.waitAny(null, null));
    }

    @Test
    void shouldReturnFromWaitAllWithoutActiveRequests() {
        MessageRequest.waitAll();
        MessageRequest.waitAll((MessageRequest)null);
    }

    @Test
    void shouldRejectNullArrays() {
        assertThrows(NullPointerException.class, () -> MessageRequest.waitAny((MessageRequest[])null));
        assertThrows(NullPointerException.class, () -> MessageRequest.waitAll((MessageRequest[])null));
    }
}
