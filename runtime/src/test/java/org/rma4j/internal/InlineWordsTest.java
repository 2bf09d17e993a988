package org.rma4j.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.rma4j.notify.NotifyLanesLayout;

/**
 * {@link InlineWords#write}: every length up to the inline capacity at every alignment writes exactly the
 * entry's bytes (the words as a notification holds them, native order) and nothing beyond.
 */
class InlineWordsTest {
    private static final byte UNTOUCHED = (byte)0x5A;

    @Test
    void writesEachLengthAtEachAlignmentAndNothingElse() {
        final byte[] bytes = new byte[NotifyLanesLayout.INLINE_CAPACITY];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte)(0x11 * (i + 1));
        }
        // The words as the entry holds them: the bytes read in native order.
        final long[] words = new long[InlineWords.WORDS + 1];
        MemorySegment.ofArray(words).asSlice(Long.BYTES).copyFrom(MemorySegment.ofArray(bytes));
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment into = arena.allocate(64, 8);
            for (int length = 0; length <= bytes.length; length++) {
                for (long offset = 0; offset < Long.BYTES; offset++) {
                    into.fill(UNTOUCHED);
                    InlineWords.write(into, offset, length, words, 1);
                    final byte[] written = into.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
                    final byte[] expected = new byte[length];
                    System.arraycopy(bytes, 0, expected, 0, length);
                    assertArrayEquals(expected, written, "length " + length + " at offset " + offset);
                    for (long i = 0; i < into.byteSize(); i++) {
                        if (i < offset || i >= offset + length) {
                            assertEquals(UNTOUCHED, into.get(ValueLayout.JAVA_BYTE, i),
                                "byte " + i + " outside length " + length + " at offset " + offset);
                        }
                    }
                }
            }
        }
    }

    @Test
    void wordsHoldTheBytesInNativeOrder() {
        final MemorySegment into = MemorySegment.ofArray(new byte[3]);
        InlineWords.write(into, 0, 3, 0x0000_0000_0033_2211L, 0, 0, 0);
        final byte[] expected = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
            ? new byte[] {0x11, 0x22, 0x33}
            : new byte[] {0, 0, 0};
        assertArrayEquals(expected, into.toArray(ValueLayout.JAVA_BYTE));
    }
}
