package org.rma4j.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * The layout of a rank's part of the messaging window: region placement, alignment, and how a
 * notification's displacement is told apart.
 */
class MessagingLayoutTest {
    @Test
    void shouldPlaceRegionsInOrderOnTwoCacheLineBoundaries() {
        final MessagingLayout layout = new MessagingLayout(5, 6000);
        assertEquals(6016, layout.ringBytes(), "ring rounded up to 128");
        assertEquals(MessagingLayout.CHUNK_BYTES_MIN, layout.chunkBytes());
        long previousEnd = MessagingLayout.CREDIT_TABLE_OFFSET;
        for (int r = 0; r < 5; r++) {
            assertEquals(MessagingLayout.CREDIT_TABLE_OFFSET + 8L * r, layout.creditOffset(r));
            assertTrue(layout.rtsOffset(r) >= MessagingLayout.CREDIT_TABLE_OFFSET + 8 * 5);
        }
        assertEquals(0, layout.rtsOffset(0) % MessagingLayout.REGION_ALIGNMENT);
        for (int r = 1; r < 5; r++) {
            assertEquals(layout.rtsOffset(r - 1) + MessagingLayout.RTS_ENTRY_BYTES, layout.rtsOffset(r),
                "rendezvous entries (length, pid, address) follow each other");
        }
        previousEnd = layout.rtsOffset(4) + MessagingLayout.RTS_ENTRY_BYTES;
        for (int r = 0; r < 5; r++) {
            assertEquals(0, layout.ringOffset(r) % MessagingLayout.REGION_ALIGNMENT, "ring of " + r);
            assertTrue(layout.ringOffset(r) >= previousEnd);
            previousEnd = layout.ringOffset(r) + layout.ringBytes();
        }
        for (int r = 0; r < 5; r++) {
            for (int chunk = 0; chunk < 2; chunk++) {
                assertEquals(0, layout.stagingOffset(r, chunk) % MessagingLayout.REGION_ALIGNMENT);
                assertTrue(layout.stagingOffset(r, chunk) >= previousEnd);
                previousEnd = layout.stagingOffset(r, chunk) + layout.chunkBytes();
            }
            assertEquals(layout.stagingOffset(r, 0), layout.stagingOffset(r, 2), "chunk k uses half k & 1");
        }
        assertEquals(previousEnd, layout.partBytes());
    }

    @Test
    void shouldClampChunkBetween64KiBAnd1MiB() {
        assertEquals(64 * 1024, new MessagingLayout(2, 0).chunkBytes());
        assertEquals(128, new MessagingLayout(2, 0).ringBytes());
        assertEquals(256 * 1024, new MessagingLayout(2, 256 * 1024).chunkBytes());
        assertEquals(1024 * 1024, new MessagingLayout(2, 16 * 1024 * 1024).chunkBytes());
        assertEquals(3, new MessagingLayout(2, 0).chunks(2 * 64 * 1024 + 1));
    }

    @Test
    void shouldRoundEagerPayloadsToCacheLinesAndEmptyOnesToNothing() {
        assertEquals(0, MessagingLayout.recordBytes(0));
        assertEquals(64, MessagingLayout.recordBytes(1));
        assertEquals(64, MessagingLayout.recordBytes(64));
        assertEquals(128, MessagingLayout.recordBytes(65));
    }

    @Test
    void shouldTellRegionAndOwnerFromDisplacement() {
        final MessagingLayout layout = new MessagingLayout(3, 1000);
        assertEquals(MessagingLayout.Region.CHUNK_SIGNAL, layout.regionOf(MessagingLayout.CHUNK_SIGNAL_OFFSET));
        for (int r = 0; r < 3; r++) {
            assertRegion(layout, MessagingLayout.Region.CREDIT, r, layout.creditOffset(r));
            assertRegion(layout, MessagingLayout.Region.RENDEZVOUS, r, layout.rtsOffset(r));
            assertRegion(layout, MessagingLayout.Region.RENDEZVOUS, r,
                layout.rtsOffset(r) + MessagingLayout.RTS_ENTRY_BYTES - 1);
            assertRegion(layout, MessagingLayout.Region.BOUNCE, r, layout.ringOffset(r));
            assertRegion(layout, MessagingLayout.Region.BOUNCE, r, layout.ringOffset(r) + layout.ringBytes() - 1);
            assertRegion(layout, MessagingLayout.Region.STAGING, r, layout.stagingOffset(r, 0));
            assertRegion(layout, MessagingLayout.Region.STAGING, r, layout.stagingOffset(r, 1));
        }
        assertThrows(IllegalStateException.class, () -> layout.regionOf(0));
        assertThrows(IllegalStateException.class, () -> layout.regionOf(layout.partBytes()));
    }

    @Test
    void shouldRecordRequestedBounceBytesAndRejectForeignHeaders() {
        final MessagingLayout layout = new MessagingLayout(2, 0);
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment part = arena.allocate(layout.partBytes(), 8);
            assertThrows(IllegalStateException.class, () -> MessagingLayout.requestedBounceBytes(part, 1));
            layout.writeHeader(part, -7);
            assertEquals(-7, MessagingLayout.requestedBounceBytes(part, 1));
        }
    }

    private static void assertRegion(final MessagingLayout layout, final MessagingLayout.Region region, final int owner,
        final long disp) {
        assertEquals(region, layout.regionOf(disp), "region of " + disp);
        assertEquals(owner, layout.ownerOf(region, disp), "owner of " + disp);
    }

    @Test
    void shouldNameTheFieldTheExpectedAndTheFoundValueOfACorruptedHeader() {
        final MessagingLayout layout = new MessagingLayout(3, 4096);
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment part = arena.allocate(layout.partBytes(), 128);
            layout.writeHeader(part, 4096);
            assertEquals(null, layout.checkHeader(part, 2));
            part.set(java.lang.foreign.ValueLayout.JAVA_LONG, MessagingLayout.CHUNK_BYTES_OFFSET, 77);
            final String message = layout.checkHeader(part, 2).getMessage();
            assertTrue(message.contains("rank 2")
                && message.contains("chunk bytes expected " + layout.chunkBytes() + ", found 77"), message);
            part.set(java.lang.foreign.ValueLayout.JAVA_INT, MessagingLayout.RANKS_OFFSET, 4);
            final String ranks = layout.checkHeader(part, 2).getMessage();
            assertTrue(ranks.contains("ranks expected 3, found 4"), ranks);
        }
    }
}
