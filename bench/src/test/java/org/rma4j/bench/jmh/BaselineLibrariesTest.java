package org.rma4j.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.jctools.queues.SpscArrayQueue;
import org.junit.jupiter.api.Test;

/**
 * The libraries for in-process baselines load and work on the build's JDK with the options the
 * benchmark forks get ({@link BenchJvm}); Agrona 2.x fails with IllegalAccessError without
 * {@link BenchJvm#AGRONA_EXPORTS}.
 */
class BaselineLibrariesTest {
    @Test
    void shouldRunAgronaRingBuffer() {
        final OneToOneRingBuffer ring = new OneToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(1024 + RingBufferDescriptor.TRAILER_LENGTH)));
        final UnsafeBuffer message = new UnsafeBuffer(new byte[Long.BYTES]);
        message.putLong(0, 42L);
        assertTrue(ring.write(1, message, 0, Long.BYTES));
        final long[] read = new long[1];
        assertEquals(1, ring.read((type, buffer, offset, length) -> read[0] = buffer.getLong(offset)));
        assertEquals(42L, read[0]);
    }

    @Test
    void shouldRunJctoolsQueue() {
        final SpscArrayQueue<Long> queue = new SpscArrayQueue<>(16);
        assertTrue(queue.offer(42L));
        assertEquals(42L, queue.poll());
    }

    @Test
    void shouldRecordHdrHistogram() {
        final Histogram histogram = new Histogram(3);
        histogram.recordValue(100);
        assertEquals(1, histogram.getTotalCount());
    }
}
