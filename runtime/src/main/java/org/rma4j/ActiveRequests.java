package org.rma4j;

/**
 * The started, incomplete notification requests of one endpoint, in start order: the order in which an arrival is
 * offered to them (Notified Access, section III: the oldest started request that matches takes it). An intrusive
 * doubly linked list through fields of the requests themselves, so that the request an arrival completes leaves
 * it at once wherever it stands; a list of references would move every later request up (a pipeline that starts a
 * request per row, some thousands, and completes them in order paid a copy of the whole list per row).
 *
 * <p>Not thread-safe: guarded by the endpoint's guard, as the requests' link fields are.
 */
final class ActiveRequests {
    private NotifyRequest head;
    private NotifyRequest tail;

    /**
     * Appends {@code request}, which is in no list.
     */
    void add(final NotifyRequest request) {
        request.previousActive = tail;
        request.nextActive = null;
        if (tail == null) {
            head = request;
        } else {
            tail.nextActive = request;
        }
        tail = request;
        request.listed = true;
    }

    /**
     * Removes {@code request} if it is listed.
     */
    void remove(final NotifyRequest request) {
        if (!request.listed) {
            return;
        }
        final NotifyRequest previous = request.previousActive;
        final NotifyRequest next = request.nextActive;
        if (previous == null) {
            head = next;
        } else {
            previous.nextActive = next;
        }
        if (next == null) {
            tail = previous;
        } else {
            next.previousActive = previous;
        }
        request.previousActive = null;
        request.nextActive = null;
        request.listed = false;
    }

    /**
     * @return the oldest listed request, or null; the next is its {@link NotifyRequest#nextActive}.
     */
    NotifyRequest first() {
        return head;
    }
}
