package org.rma4j.bench.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.jctools.queues.MpscArrayQueue;
import org.rma4j.notify.Notification;
import org.rma4j.notify.NotificationHandler;
import org.rma4j.notify.LaneProducer;
import org.rma4j.notify.NotifyLanes;
import org.rma4j.notify.NotifyLanesLayout;

/**
 * A bounded multi-producer single-consumer channel of 8-byte messages, with one implementation per
 * queue the ring benchmarks compare: rma4j's {@link NotifyLanes} (the notification lanes of every window,
 * here over a private native segment, one lane per producer thread), Agrona's {@link ManyToOneRingBuffer}
 * and JCTools' {@link MpscArrayQueue}. Each holds {@link #CAPACITY} messages.
 *
 * <p>The same work in each: a producer hands over one {@code long}, the consumer takes one message
 * per {@link #poll()} and adds its value to {@link #sum()}. What moves differs by design:
 * the lanes write a 64-byte entry (stamp, source, tag, displacement, length, flags and the 8 bytes
 * inline), a doorbell byte, and check for a sleeping consumer; Agrona writes a 16-byte record (8-byte header,
 * 8 bytes); JCTools stores a reference to a {@code Long} the producer allocated once.
 *
 * <p>{@link #producer()} is called once per producer thread; {@link #poll()} by one thread at a time.
 */
public abstract sealed class RingChannel implements AutoCloseable {
    /** Messages each channel holds. */
    public static final int CAPACITY = 1024;

    /** The implementations, by the name the benchmarks' {@code impl} parameter uses. */
    public static final String NOTIFY_LANES = "notifyLanes";
    public static final String AGRONA = "agronaManyToOne";
    public static final String JCTOOLS = "jctoolsMpsc";

    protected long sum;

    /**
     * @param name one of {@link #NOTIFY_LANES}, {@link #AGRONA}, {@link #JCTOOLS}.
     */
    public static RingChannel of(final String name) {
        return switch (name) {
            case NOTIFY_LANES -> new NotifyLanesChannel();
            case AGRONA -> new AgronaChannel();
            case JCTOOLS -> new JctoolsChannel();
            default -> throw new IllegalArgumentException("unknown ring implementation " + name);
        };
    }

    /**
     * @return a handle for one producer thread.
     */
    public abstract Producer producer();

    /**
     * @return messages one producer can offer before the channel refuses it: {@link #CAPACITY}, or its lane's
     *         capacity where each producer has its own lane.
     */
    public int producerCapacity() {
        return CAPACITY;
    }

    /**
     * Takes at most one message. Consumer thread only.
     *
     * @return 1 if a message was taken, else 0.
     */
    public abstract int poll();

    /**
     * @return the sum of the values taken so far (consumer thread).
     */
    public long sum() {
        return sum;
    }

    @Override
    public void close() {
    }

    /** One producer thread's handle. */
    public interface Producer {
        /**
         * @return false if the channel is full (nothing was written).
         */
        boolean offer(long value);
    }

    /**
     * rma4j's notification lanes: {@link #LANES} lanes of {@link #CAPACITY} / {@link #LANES} entries, each producer
     * thread its own lane (as each rank has its own lane at a target).
     */
    static final class NotifyLanesChannel extends RingChannel {
        /** Lanes: the producer threads a channel serves at most. */
        static final int LANES = 16;
        private static final int LANE_CAPACITY = CAPACITY / LANES;
        private static final int TAG = 1;
        private final Arena arena = Arena.ofShared();
        private final MemorySegment lanes;
        private final NotifyLanes consumer;
        private final AtomicInteger producers = new AtomicInteger();
        private final NotificationHandler handler = this::onNotification;
        private final MemorySegment received;

        NotifyLanesChannel() {
            received = arena.allocate(ValueLayout.JAVA_LONG);
            lanes = arena.allocate(NotifyLanesLayout.lengthFor(LANES, LANE_CAPACITY), 4096);
            NotifyLanes.format(lanes, 0, LANES, LANE_CAPACITY);
            consumer = new NotifyLanes(lanes, 0, LANES, LANE_CAPACITY);
        }

        @Override
        public Producer producer() {
            final int id = producers.getAndIncrement();
            final LaneProducer producer = new LaneProducer(lanes, 0, LANES, LANE_CAPACITY, id);
            final MemorySegment payload = arena.allocate(ValueLayout.JAVA_LONG);
            return value -> {
                payload.set(ValueLayout.JAVA_LONG, 0, value);
                return producer.offer(id, TAG, 0, Long.BYTES, 0, payload);
            };
        }

        @Override
        public int poll() {
            return consumer.poll(handler);
        }

        @Override
        public int producerCapacity() {
            return LANE_CAPACITY;
        }

        private void onNotification(final Notification notification) {
            notification.copyInlinePayloadTo(received, 0);
            sum += received.get(ValueLayout.JAVA_LONG, 0);
        }

        @Override
        public void close() {
            arena.close();
        }
    }

    /** Agrona's many-to-one ring buffer over a direct buffer. */
    static final class AgronaChannel extends RingChannel {
        private static final int MSG_TYPE = 1;
        /** Record: 8-byte header and 8 bytes of message, already 8-byte aligned. */
        private static final int RECORD_BYTES = 16;
        private final ManyToOneRingBuffer ring = new ManyToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(CAPACITY * RECORD_BYTES + RingBufferDescriptor.TRAILER_LENGTH)));
        private final MessageHandler handler = this::onMessage;

        @Override
        public Producer producer() {
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(Long.BYTES));
            return value -> {
                message.putLong(0, value);
                return ring.write(MSG_TYPE, message, 0, Long.BYTES);
            };
        }

        @Override
        public int poll() {
            return ring.read(handler, 1);
        }

        private void onMessage(final int type, final MutableDirectBuffer buffer, final int index, final int length) {
            sum += buffer.getLong(index);
        }
    }

    /** JCTools' MPSC array queue of boxed values, each producer offering one preallocated box. */
    static final class JctoolsChannel extends RingChannel {
        private final MpscArrayQueue<Long> queue = new MpscArrayQueue<>(CAPACITY);

        @Override
        public Producer producer() {
            final Long[] box = new Long[1];
            return value -> {
                if (box[0] == null || box[0] != value) {
                    box[0] = value;
                }
                return queue.offer(box[0]);
            };
        }

        @Override
        public int poll() {
            final Long value = queue.poll();
            if (value == null) {
                return 0;
            }
            sum += value;
            return 1;
        }
    }
}
