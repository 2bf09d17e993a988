package org.rma4j.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.rma4j.notify.NotifyLanesLayout;

/**
 * The data a notification carried inline, kept as the words of its entry (native byte order, as the entry holds
 * them) and written out into a segment of any alignment. A short message's copies (into a kept message, into a
 * receive's buffer) are word stores through this class's own var handles: the JDK's {@code MemorySegment.copy}
 * is one call site for every segment type of the process, whose checks and virtual calls cost more than the few
 * bytes it moves.
 */
public final class InlineWords {
    /** Words of inline data a notification carries at most. */
    public static final int WORDS = NotifyLanesLayout.INLINE_CAPACITY / Long.BYTES;

    private static final VarHandle ANY_LONG = ValueLayout.JAVA_LONG_UNALIGNED.varHandle();
    private static final VarHandle ANY_BYTE = ValueLayout.JAVA_BYTE.varHandle();
    private static final boolean BIG_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;

    private InlineWords() {
    }

    /**
     * Writes the first {@code length} bytes (0 to {@link NotifyLanesLayout#INLINE_CAPACITY}) of the words
     * {@code w0}..{@code w3} into {@code into} from {@code offset}; the words' bytes past {@code length} are not
     * read.
     */
    public static void write(final MemorySegment into, final long offset, final int length, final long w0,
        final long w1, final long w2, final long w3) {
        final int full = length >>> 3;
        if (full > 0) {
            ANY_LONG.set(into, offset, w0);
            if (full > 1) {
                ANY_LONG.set(into, offset + Long.BYTES, w1);
                if (full > 2) {
                    ANY_LONG.set(into, offset + 2 * Long.BYTES, w2);
                    if (full > 3) {
                        ANY_LONG.set(into, offset + 3 * Long.BYTES, w3);
                    }
                }
            }
        }
        final int tail = length & (Long.BYTES - 1);
        if (tail != 0) {
            final long word = switch (full) {
                case 0 -> w0;
                case 1 -> w1;
                case 2 -> w2;
                default -> w3;
            };
            final long at = offset + ((long)full << 3);
            for (int i = 0; i < tail; i++) {
                final int shift = (BIG_ENDIAN ? 7 - i : i) << 3;
                ANY_BYTE.set(into, at + i, (byte)(word >>> shift));
            }
        }
    }

    /**
     * {@link #write} of the words {@code words[from]}..{@code words[from + WORDS - 1]}.
     */
    public static void write(final MemorySegment into, final long offset, final int length, final long[] words,
        final int from) {
        write(into, offset, length, words[from], words[from + 1], words[from + 2], words[from + 3]);
    }
}
