package org.rma4j.bench.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicInteger;
import org.rma4j.notify.LaneProducer;
import org.rma4j.notify.Notification;
import org.rma4j.notify.NotificationHandler;
import org.rma4j.notify.NotifyLanes;
import org.rma4j.notify.NotifyLanesLayout;

/**
 * One consumer's notification lanes as the lane benchmarks use them: {@link NotifyLanes} (one release store
 * per offer, and beyond {@link NotifyLanesLayout#STAMP_POLLED_LANES_MAX} origins one for the doorbell; no fence
 * where membarrier is supported) over a private native segment, carrying 8-byte inline notifications. The
 * shared multi-producer ring these benchmarks compared the lanes with is gone from the code;
 * notify-queue/README.md keeps the comparison's figures.
 *
 * <p>{@code origins} lanes of {@code laneCapacity} entries. {@link #producer} once per origin (one thread
 * each); {@link #drain} by one thread at a time. The handler copies the payload out of the entry and adds it
 * to {@link #sum()}.
 */
abstract sealed class NotifyChannel implements AutoCloseable {
    static final String LANES = "lanes";
    static final int LANE_CAPACITY = NotifyLanesLayout.LANE_CAPACITY_DEFAULT;
    private static final int TAG = 1;

    final Arena arena = Arena.ofShared();
    final MemorySegment received = arena.allocate(ValueLayout.JAVA_LONG);
    final NotificationHandler handler = this::onNotification;
    private final AtomicInteger nextOrigin = new AtomicInteger();
    long sum;

    static NotifyChannel of(final String impl, final int origins) {
        return switch (impl) {
            case LANES -> new Lanes(origins);
            default -> throw new IllegalArgumentException("unknown notification queue " + impl);
        };
    }

    /** One origin's handle: offers an 8-byte value. */
    interface Producer {
        /**
         * @return false if the queue (or the origin's lane) is full.
         */
        boolean offer(long value);
    }

    /**
     * @return the handle of origin {@code origin}, one thread at a time.
     */
    abstract Producer producer(int origin);

    /**
     * @return the handle of the next origin not handed out yet.
     */
    Producer nextProducer() {
        return producer(nextOrigin.getAndIncrement());
    }

    /**
     * @return notifications taken, at most {@code limit}.
     */
    abstract int drain(int limit);

    long sum() {
        return sum;
    }

    private void onNotification(final Notification notification) {
        notification.copyInlinePayloadTo(received, 0);
        sum += received.get(ValueLayout.JAVA_LONG, 0);
    }

    MemorySegment payload() {
        return arena.allocate(ValueLayout.JAVA_LONG);
    }

    @Override
    public void close() {
        arena.close();
    }

    static final class Lanes extends NotifyChannel {
        private final MemorySegment lanes;
        private final int origins;
        private final NotifyLanes consumer;

        Lanes(final int origins) {
            this.origins = origins;
            lanes = arena.allocate(NotifyLanesLayout.lengthFor(origins, LANE_CAPACITY), 4096);
            NotifyLanes.format(lanes, 0, origins, LANE_CAPACITY);
            consumer = new NotifyLanes(lanes, 0, origins, LANE_CAPACITY);
        }

        @Override
        Producer producer(final int origin) {
            final LaneProducer producer = new LaneProducer(lanes, 0, origins, LANE_CAPACITY, origin);
            final MemorySegment payload = payload();
            return value -> {
                payload.set(ValueLayout.JAVA_LONG, 0, value);
                return producer.offer(origin, TAG, 0, Long.BYTES, 0, payload);
            };
        }

        @Override
        int drain(final int limit) {
            return consumer.drain(handler, limit);
        }
    }
}
