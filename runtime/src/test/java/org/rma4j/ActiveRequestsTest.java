package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The endpoint's list of started requests: start order kept through removals at the head, in the middle and at the
 * tail, removal of a request that is not listed a no-op, and a removed request listed again at the end.
 */
class ActiveRequestsTest {
    @Test
    void shouldKeepStartOrderThroughRemovalsAnywhere() {
        final ActiveRequests active = new ActiveRequests();
        final List<NotifyRequest> requests = new ArrayList<>();
        for (int tag = 0; tag < 6; tag++) {
            final NotifyRequest request = new NotifyRequest(null, 1, tag, 1);
            requests.add(request);
            active.add(request);
        }
        assertEquals(List.of(0, 1, 2, 3, 4, 5), tags(active));
        active.remove(requests.get(2));
        assertEquals(List.of(0, 1, 3, 4, 5), tags(active));
        active.remove(requests.get(0));
        assertEquals(List.of(1, 3, 4, 5), tags(active));
        active.remove(requests.get(5));
        assertEquals(List.of(1, 3, 4), tags(active));
        assertFalse(requests.get(5).listed);
        assertNull(requests.get(5).previousActive);
        active.remove(requests.get(5));
        active.remove(requests.get(2));
        assertEquals(List.of(1, 3, 4), tags(active), "removing a request that is not listed changes nothing");
        active.add(requests.get(0));
        assertEquals(List.of(1, 3, 4, 0), tags(active), "a request started again is the youngest");
        for (final int tag : List.of(3, 1, 4, 0)) {
            active.remove(requests.get(tag));
        }
        assertNull(active.first());
        active.add(requests.get(5));
        assertEquals(List.of(5), tags(active));
        assertTrue(requests.get(5).listed);
    }

    private static List<Integer> tags(final ActiveRequests active) {
        final List<Integer> tags = new ArrayList<>();
        for (NotifyRequest request = active.first(); request != null; request = request.nextActive) {
            tags.add(request.tag());
        }
        return tags;
    }
}
