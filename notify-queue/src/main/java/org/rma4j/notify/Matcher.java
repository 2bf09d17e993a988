package org.rma4j.notify;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The unexpected queue of one consumer: notifications that arrived before a request wanted them, matched
 * by (source or {@link #ANY_SOURCE}, tag or {@link #ANY_TAG}) to the oldest arrival that fits (Notified
 * Access, section III and IV.B: one unexpected queue keeps the arrival order; wildcards match the oldest).
 *
 * <p>Not thread-safe: one consumer thread owns it. Every operation is O(1) amortized (expected, hash look-ups),
 * whatever the mix of (source, tag) pairs queued; no lookup scans notifications of other pairs.
 *
 * <p>Notifications added are {@linkplain Notification#copy() copied} unless already detached, so a view
 * of a lane slot may be added straight from a {@link NotificationHandler}: {@code lanes.drain(matcher::add, n)}.
 */
public final class Matcher {
    /** Source wildcard: matches every source. */
    public static final int ANY_SOURCE = -1;
    /** Tag wildcard: matches every tag. */
    public static final int ANY_TAG = -1;

    /** Dead nodes a lane may hold beyond its live ones before it is compacted. */
    private static final int COMPACT_SLACK = 32;

    /*
     * Design: each arrival is one Node, appended to four FIFO lanes: all arrivals, its source's lane, its
     * tag's lane and its (source, tag) lane. A pattern selects exactly one lane (the wildcards choose which),
     * whose oldest live node is the oldest matching arrival. Taking a node marks it taken; the lanes drop
     * taken nodes lazily when they reach the head, and compact when taken nodes outnumber live ones, so
     * each node costs O(1) amortized per lane. A lane whose live count drops to 0 leaves its map.
     * Invariants: a lane holds its nodes in arrival order; lane.live counts its untaken nodes; size() equals
     * all.live; every untaken node is in its four lanes.
     */

    private final Lane all = new Lane();
    private final Map<Long, Lane> bySource = new HashMap<>();
    private final Map<Long, Lane> byTag = new HashMap<>();
    private final Map<Long, Lane> byPair = new HashMap<>();
    private long inspectedNodes;

    /**
     * Appends a notification to the unexpected queue.
     *
     * @param notification a detached notification, or a lane view (copied here).
     * @throws IllegalArgumentException if its source or tag is negative.
     */
    public void add(final Notification notification) {
        final Notification copy = notification.copy();
        final int source = copy.source();
        final int tag = copy.tag();
        if (source < 0 || tag < 0) {
            throw new IllegalArgumentException(
                "notification with source " + source + " and tag " + tag + " cannot be matched: both must be >= 0");
        }
        final Node node = new Node(copy);
        all.add(node);
        laneFor(bySource, source).add(node);
        laneFor(byTag, tag).add(node);
        laneFor(byPair, pairKey(source, tag)).add(node);
    }

    /**
     * Removes and returns the oldest notification that matches.
     *
     * @param source a source, or {@link #ANY_SOURCE}.
     * @param tag    a tag, or {@link #ANY_TAG}.
     * @return the oldest match, or empty if none is queued.
     * @throws IllegalArgumentException if source or tag is negative and not the wildcard.
     */
    public Optional<Notification> takeOldest(final int source, final int tag) {
        checkPattern(source, tag);
        if (all.live == 0) {
            return Optional.empty(); // the common case of a request started before its notifications arrive
        }
        final Node node = oldest(source, tag);
        if (node == null) {
            return Optional.empty();
        }
        node.taken = true;
        release(all, null, 0, node);
        release(bySource.get((long)node.source()), bySource, node.source(), node);
        release(byTag.get((long)node.tag()), byTag, node.tag(), node);
        release(byPair.get(pairKey(node.source(), node.tag())), byPair, pairKey(node.source(), node.tag()), node);
        return Optional.of(node.notification);
    }

    /**
     * Returns, without removing it, the oldest notification that matches (probe).
     *
     * @return the oldest match, or empty if none is queued.
     * @throws IllegalArgumentException if source or tag is negative and not the wildcard.
     */
    public Optional<Notification> peekOldest(final int source, final int tag) {
        final Node node = oldest(source, tag);
        return node == null ? Optional.empty() : Optional.of(node.notification);
    }

    /**
     * @return notifications queued that match (source or ANY_SOURCE, tag or ANY_TAG).
     * @throws IllegalArgumentException if source or tag is negative and not the wildcard.
     */
    public int count(final int source, final int tag) {
        final Lane lane = lane(source, tag);
        return lane == null ? 0 : lane.live;
    }

    /**
     * @return notifications queued.
     */
    public int size() {
        return all.live;
    }

    public boolean isEmpty() {
        return all.live == 0;
    }

    /**
     * @return queue nodes examined so far by lookups and compactions (a measure of lookup work, for tests).
     */
    long inspectedNodes() {
        return inspectedNodes;
    }

    private Node oldest(final int source, final int tag) {
        final Lane lane = lane(source, tag);
        return lane == null ? null : lane.oldestLive();
    }

    private Lane lane(final int source, final int tag) {
        checkPattern(source, tag);
        if (source == ANY_SOURCE) {
            return tag == ANY_TAG ? all : byTag.get((long)tag);
        }
        return tag == ANY_TAG ? bySource.get((long)source) : byPair.get(pairKey(source, tag));
    }

    private Lane laneFor(final Map<Long, Lane> lanes, final long key) {
        Lane lane = lanes.get(key);
        if (lane == null) {
            lane = new Lane();
            lanes.put(key, lane);
        }
        return lane;
    }

    private static void release(final Lane lane, final Map<Long, Lane> lanes, final long key, final Node node) {
        Objects.requireNonNull(lane, "lane of a queued node");
        lane.live--;
        if (lane.live == 0) {
            if (lanes == null) {
                lane.nodes.clear();
            } else {
                lanes.remove(key);
            }
        } else if (lane.nodes.peekFirst() == node) {
            lane.nodes.pollFirst();
        } else if (lane.nodes.size() - lane.live > lane.live + COMPACT_SLACK) {
            lane.compact();
        }
    }

    private static long pairKey(final int source, final int tag) {
        return (long)source << 32 | (tag & 0xFFFF_FFFFL);
    }

    private static void checkPattern(final int source, final int tag) {
        if (source < ANY_SOURCE || tag < ANY_TAG) {
            throw new IllegalArgumentException(
                "source " + source + " and tag " + tag + " must be >= 0 or the wildcard " + ANY_SOURCE);
        }
    }

    private static final class Node {
        final Notification notification;
        boolean taken;

        Node(final Notification notification) {
            this.notification = notification;
        }

        int source() {
            return notification.source();
        }

        int tag() {
            return notification.tag();
        }
    }

    /** A FIFO of nodes in arrival order, with lazy removal of taken nodes. */
    private final class Lane {
        final ArrayDeque<Node> nodes = new ArrayDeque<>();
        int live;

        void add(final Node node) {
            nodes.addLast(node);
            live++;
        }

        Node oldestLive() {
            Node head = nodes.peekFirst();
            inspectedNodes++;
            while (head != null && head.taken) {
                nodes.pollFirst();
                head = nodes.peekFirst();
                inspectedNodes++;
            }
            return head;
        }

        void compact() {
            inspectedNodes += nodes.size();
            nodes.removeIf(node -> node.taken);
        }
    }
}
