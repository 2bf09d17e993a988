package org.rma4j.notify;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.BooleanSupplier;

/**
 * The notifications the concurrency tests send, derived from (producer, sequence number) so that the
 * consumer can check every field and payload byte, per-producer order, losses and duplicates.
 */
final class Traffic {
    private Traffic() {
    }

    static int tag(final long sequence) {
        return (int)(sequence % 1000);
    }

    static int length(final long sequence) {
        return (int)(sequence % 4096);
    }

    static int flags(final long sequence) {
        return (int)(sequence * 31) & NotifyLanesLayout.USER_FLAGS_MASK;
    }

    static int inlineLength(final long sequence) {
        return (int)(sequence % (NotifyLanesLayout.INLINE_CAPACITY + 1));
    }

    static byte payloadByte(final int producer, final long sequence, final int i) {
        return (byte)(sequence * 7 + i + producer);
    }

    /**
     * Offers {@code count} notifications into {@code lane} as producer {@code producer} (its source), retrying
     * while the lane is full; between retries calls {@code stillWanted}, which returns false to give up.
     *
     * @return whether all were offered.
     */
    static boolean produce(final LaneProducer lane, final int producer, final long count,
        final BooleanSupplier stillWanted) {
        return produce((Sink)lane::offer, producer, count, stillWanted);
    }

    /** Where notifications are offered. */
    @FunctionalInterface
    interface Sink {
        boolean offer(int source, int tag, long displacement, int length, int flags, MemorySegment inlinePayload);
    }

    static boolean produce(final Sink sink, final int producer, final long count, final BooleanSupplier stillWanted) {
        final MemorySegment scratch = MemorySegment.ofArray(new byte[NotifyLanesLayout.INLINE_CAPACITY]);
        long fullRetries = 0;
        for (long sequence = 0; sequence < count; sequence++) {
            while (!offer(sink, producer, sequence, scratch)) {
                if ((++fullRetries & 1023) == 0 && !stillWanted.getAsBoolean()) {
                    return false;
                }
                Thread.yield();
            }
        }
        return true;
    }

    /**
     * Offers notification {@code sequence} of {@code producer} once, its payload built in {@code scratch}.
     *
     * @return the offer's result.
     */
    static boolean offer(final Sink sink, final int producer, final long sequence, final MemorySegment scratch) {
        final int inlineLength = inlineLength(sequence);
        for (int i = 0; i < inlineLength; i++) {
            scratch.set(ValueLayout.JAVA_BYTE, i, payloadByte(producer, sequence, i));
        }
        return sink.offer(producer, tag(sequence), sequence, length(sequence), flags(sequence),
            scratch.asSlice(0, inlineLength));
    }

    /**
     * A handler that checks each notification against the traffic of its source and counts them.
     */
    static final class Checker implements NotificationHandler {
        private final long[] next;
        private long received;

        Checker(final int producers) {
            next = new long[producers];
        }

        @Override
        public void onNotification(final Notification n) {
            final int producer = n.source();
            if (producer < 0 || producer >= next.length) {
                throw new AssertionError("unknown source in " + n);
            }
            final long sequence = next[producer];
            if (n.displacement() != sequence) {
                throw new AssertionError("producer " + producer + ": expected sequence " + sequence + " but got "
                    + n.displacement() + (n.displacement() < sequence ? " (duplicate or reordered)" : " (lost)"));
            }
            check(producer, sequence, "tag", tag(sequence), n.tag());
            check(producer, sequence, "length", length(sequence), n.length());
            check(producer, sequence, "flags", flags(sequence), n.flags());
            check(producer, sequence, "inline length", inlineLength(sequence), n.inlineLength());
            final MemorySegment inline = n.inlinePayload();
            for (int i = 0; i < inline.byteSize(); i++) {
                check(producer, sequence, "payload byte " + i, payloadByte(producer, sequence, i),
                    inline.get(ValueLayout.JAVA_BYTE, i));
            }
            next[producer] = sequence + 1;
            received++;
        }

        long received() {
            return received;
        }

        long receivedFrom(final int producer) {
            return next[producer];
        }

        private static void check(final int producer, final long sequence, final String field, final long expected,
            final long actual) {
            if (expected != actual) {
                throw new AssertionError("producer " + producer + " sequence " + sequence + ": " + field + " " + actual
                    + " instead of " + expected);
            }
        }
    }
}
