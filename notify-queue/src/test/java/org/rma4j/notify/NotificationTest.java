package org.rma4j.notify;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NotificationTest {
    private LaneFiles files;

    @BeforeEach
    void setUp() throws Exception {
        files = new LaneFiles();
    }

    @AfterEach
    void tearDown() throws Exception {
        files.close();
    }

    @Test
    void shouldBuildADetachedNotificationWithEveryField() {
        final byte[] payload = {1, 2, 3, 4, 5};
        final Notification n = Notification.of(3, 9, 4096, 5, 0x123, MemorySegment.ofArray(payload));
        assertTrue(n.isDetached());
        assertEquals(3, n.source());
        assertEquals(9, n.tag());
        assertEquals(4096, n.displacement());
        assertEquals(5, n.length());
        assertEquals(0x123, n.flags());
        assertEquals(5, n.inlineLength());
        assertArrayEquals(payload, n.inlinePayload().toArray(ValueLayout.JAVA_BYTE));
        assertSame(n, n.copy(), "a detached notification is immutable and its own copy");
        assertTrue(n.toString().contains("source=3"), n.toString());
    }

    @Test
    void shouldKeepEveryHeaderFieldAtItsExtremesThroughALaneAndACopy() {
        final MemorySegment segment = files.createLanes("lanes", 1, 1);
        final NotifyLanes lanes = new NotifyLanes(segment, LaneFiles.LANES_OFFSET, 1, 1);
        final LaneProducer lane = new LaneProducer(segment, LaneFiles.LANES_OFFSET, 1, 1, 0);
        final byte[] payload = new byte[NotifyLanesLayout.INLINE_CAPACITY];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte)(0x80 + i);
        }
        // The header's pairs of ints are single words: no field may leak into its neighbour at its largest value.
        assertTrue(lane.offer(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE,
            NotifyLanesLayout.USER_FLAGS_MASK, MemorySegment.ofArray(payload)));
        final Notification[] copy = new Notification[1];
        assertEquals(1, lanes.poll(n -> {
            assertHeader(n, Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE,
                NotifyLanesLayout.USER_FLAGS_MASK, payload.length);
            copy[0] = n.copy();
        }));
        assertHeader(copy[0], Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE,
            NotifyLanesLayout.USER_FLAGS_MASK, payload.length);
        assertArrayEquals(payload, copy[0].inlinePayload().toArray(ValueLayout.JAVA_BYTE));
        assertTrue(lane.offer(0, 0, -1, 0, 0, null));
        assertEquals(1, lanes.poll(n -> assertHeader(n, 0, 0, -1, 0, 0, 0)));
    }

    private static void assertHeader(final Notification n, final int source, final int tag, final long displacement,
        final int length, final int flags, final int inlineLength) {
        assertEquals(source, n.source(), "source");
        assertEquals(tag, n.tag(), "tag");
        assertEquals(displacement, n.displacement(), "displacement");
        assertEquals(length, n.length(), "length");
        assertEquals(flags, n.flags(), "flags");
        assertEquals(inlineLength, n.inlineLength(), "inline length");
    }

    @Test
    void shouldCopyAnInlinePayloadOfWordsAndATailToAnyOffset() {
        final byte[] payload = new byte[13];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte)(i + 1);
        }
        final Notification n = Notification.of(0, 0, 0, payload.length, 0,
            MemorySegment.ofArray(payload).asSlice(0, payload.length));
        final byte[] into = new byte[20];
        assertEquals(13, n.copyInlinePayloadTo(MemorySegment.ofArray(into), 3));
        for (int i = 0; i < into.length; i++) {
            assertEquals(i >= 3 && i < 16 ? (byte)(i - 2) : 0, into[i], "byte " + i);
        }
        assertEquals(MemorySegment.ofArray(payload).get(ValueLayout.JAVA_LONG_UNALIGNED, 0), n.inlineWord(0));
        assertThrows(IndexOutOfBoundsException.class,
            () -> n.copyInlinePayloadTo(MemorySegment.ofArray(new byte[12]), 0));
        assertThrows(IndexOutOfBoundsException.class, () -> n.inlineWord(4));
    }

    @Test
    void shouldRejectInvalidFieldsLikeAnOffer() {
        assertThrows(IllegalArgumentException.class, () -> Notification.of(-1, 0, 0, 0, 0, null));
        assertThrows(IllegalArgumentException.class,
            () -> Notification.of(0, 0, 0, 0, 0, MemorySegment.ofArray(new byte[33])));
    }

    @Test
    void shouldKeepACopysPayloadAfterTheLaneSlotIsReused() {
        final MemorySegment segment = files.createLanes("lanes", 1, 1);
        final NotifyLanes lanes = new NotifyLanes(segment, LaneFiles.LANES_OFFSET, 1, 1);
        final LaneProducer lane = new LaneProducer(segment, LaneFiles.LANES_OFFSET, 1, 1, 0);
        final Notification[] kept = new Notification[2];
        assertTrue(lane.offer(1, 1, 1, 2, 0, MemorySegment.ofArray(new byte[] {10, 11})));
        lanes.poll(n -> {
            kept[0] = n;
            kept[1] = n.copy();
        });
        assertTrue(lane.offer(2, 2, 2, 3, 0, MemorySegment.ofArray(new byte[] {20, 21, 22})));

        assertFalse(kept[0].isDetached());
        assertEquals(20, MemorySegment.ofArray(new long[] {kept[0].inlineWord(0)}).get(ValueLayout.JAVA_BYTE, 0),
            "a view's payload is read in the slot, which holds the next entry now");
        assertEquals(1, kept[1].source());
        assertEquals(1, kept[1].displacement());
        assertArrayEquals(new byte[] {10, 11}, kept[1].inlinePayload().toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void shouldRefuseToWriteThroughItsPayloadView() {
        final Notification n = Notification.of(0, 0, 0, 1, 0, MemorySegment.ofArray(new byte[] {7}));
        assertTrue(n.inlinePayload().isReadOnly());
    }
}
