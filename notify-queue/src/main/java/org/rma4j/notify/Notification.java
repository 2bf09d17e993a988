package org.rma4j.notify;

import static org.rma4j.notify.NotifyLanesLayout.DISPLACEMENT_OFFSET;
import static org.rma4j.notify.NotifyLanesLayout.ENTRY_LENGTH;
import static org.rma4j.notify.NotifyLanesLayout.INLINE_LENGTH_SHIFT;
import static org.rma4j.notify.NotifyLanesLayout.INLINE_OFFSET;
import static org.rma4j.notify.NotifyLanesLayout.LENGTH_OFFSET;
import static org.rma4j.notify.NotifyLanesLayout.SOURCE_OFFSET;
import static org.rma4j.notify.NotifyLanesLayout.USER_FLAGS_MASK;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * One notification: source, tag, target displacement, length, the caller's flags and up to
 * {@link NotifyLanesLayout#INLINE_CAPACITY} bytes of inline payload.
 *
 * <p>Two kinds of instance exist. A <em>view</em> is what {@link NotifyLanes#poll} hands to a
 * {@link NotificationHandler}: it reads the lane's slot in place, is reused for the next entry and is valid
 * only during the handler call, because the slot is handed back to the producers afterwards. A
 * <em>detached</em> notification ({@link #copy()}, {@link #of}) owns a private copy of the 64-byte entry
 * and is immutable; keep only detached notifications beyond a handler call.
 *
 * <p>The entry's header (source and tag, displacement, length and flags) is three 8-byte words, written with three
 * stores and read with three loads when a view is pointed at an entry (a published entry does not change until its
 * slot is handed back): each access of a segment checks its bounds and its session's liveness, and an entry's
 * header taken field by field cost five of each on either side.
 */
public final class Notification {
    // NOTE: var handles of this class, not the shared Words accessors: each call site here keeps its own
    // profile of the segment type, so the JIT inlines the accesses (a shared accessor sees every segment type).
    // Unaligned layouts, for plain accesses only: an entry starts 64-byte aligned (NotifyLanesLayout.checkPlacement,
    // a long[] for a detached one) and the caller's payload may start anywhere; an aligned layout's var handle
    // checks the alignment at every access, an unaligned one's check folds away, and on x86-64 and AArch64 its
    // loads and stores of an aligned word are the same single instructions.
    private static final VarHandle LONG = ValueLayout.JAVA_LONG_UNALIGNED.varHandle();
    private static final VarHandle ANY_BYTE = ValueLayout.JAVA_BYTE.varHandle();
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private MemorySegment segment;
    private long offset;
    private final boolean detached;
    /** The header words of the entry, read when this notification was pointed at it. */
    private long sourceAndTag;
    private long displacement;
    private long lengthAndFlags;

    private Notification(final MemorySegment segment, final long offset, final boolean detached) {
        this.detached = detached;
        wrap(segment, offset);
    }

    /**
     * @return a view to be pointed at lane slots with {@link #wrap}.
     */
    static Notification view() {
        return new Notification(null, 0, false);
    }

    /**
     * Points this view at the entry at {@code entryOffset} of {@code laneSegment}.
     */
    void wrap(final MemorySegment laneSegment, final long entryOffset) {
        this.segment = laneSegment;
        this.offset = entryOffset;
        if (laneSegment != null) {
            sourceAndTag = (long)LONG.get(laneSegment, entryOffset + SOURCE_OFFSET);
            displacement = (long)LONG.get(laneSegment, entryOffset + DISPLACEMENT_OFFSET);
            lengthAndFlags = (long)LONG.get(laneSegment, entryOffset + LENGTH_OFFSET);
        }
    }

    /**
     * Makes a detached notification, e.g. for a target that notifies itself without a lane.
     *
     * @param inlinePayload up to {@link NotifyLanesLayout#INLINE_CAPACITY} bytes, or null for none.
     * @throws IllegalArgumentException as {@link LaneProducer#offer} does.
     */
    public static Notification of(final int source, final int tag, final long displacement, final int length,
        final int flags, final MemorySegment inlinePayload) {
        final long inlineLength = inlinePayload == null ? 0 : inlinePayload.byteSize();
        NotifyLanesLayout.checkEntry(source, tag, length, flags, inlineLength);
        final MemorySegment entry = newEntry();
        writeFields(entry, 0, source, tag, displacement, length, flags, inlinePayload);
        return new Notification(entry, 0, true);
    }

    /**
     * Writes the fields and inline payload of an entry with plain stores; the sequence word is not touched.
     * The arguments must have passed {@link NotifyLanesLayout#checkEntry}.
     */
    static void writeFields(final MemorySegment segment, final long entryOffset, final int source, final int tag,
        final long displacement, final int length, final int flags, final MemorySegment inlinePayload) {
        final int inlineLength = inlinePayload == null ? 0 : (int)inlinePayload.byteSize();
        LONG.set(segment, entryOffset + SOURCE_OFFSET, pair(source, tag));
        LONG.set(segment, entryOffset + DISPLACEMENT_OFFSET, displacement);
        LONG.set(segment, entryOffset + LENGTH_OFFSET, pair(length, flags | inlineLength << INLINE_LENGTH_SHIFT));
        if (inlineLength > 0) {
            // NOTE: word by word through this class's var handles, not MemorySegment.copy: the JDK's copy is one
            // call site for every segment pair of the process, whose base and offset calls stay virtual.
            final long inline = entryOffset + INLINE_OFFSET;
            final int words = inlineLength & ~(Long.BYTES - 1);
            for (int i = 0; i < words; i += Long.BYTES) {
                LONG.set(segment, inline + i, (long)LONG.get(inlinePayload, (long)i));
            }
            for (int i = words; i < inlineLength; i++) {
                ANY_BYTE.set(segment, inline + i, (byte)ANY_BYTE.get(inlinePayload, (long)i));
            }
        }
    }

    /**
     * @return the word that holds {@code first} at its lower address and {@code second} 4 bytes above it.
     */
    private static long pair(final int first, final int second) {
        return LITTLE_ENDIAN
            ? (first & 0xFFFF_FFFFL) | (long)second << Integer.SIZE
            : (long)first << Integer.SIZE | (second & 0xFFFF_FFFFL);
    }

    /** @return the int at the lower address of a {@link #pair}. */
    private static int first(final long pair) {
        return (int)(LITTLE_ENDIAN ? pair : pair >>> Integer.SIZE);
    }

    /** @return the int 4 bytes above the lower address of a {@link #pair}. */
    private static int second(final long pair) {
        return (int)(LITTLE_ENDIAN ? pair >>> Integer.SIZE : pair);
    }

    public int source() {
        return first(sourceAndTag);
    }

    public int tag() {
        return second(sourceAndTag);
    }

    /**
     * @return where the notified access went in the target's memory, as the producer described it.
     */
    public long displacement() {
        return displacement;
    }

    /**
     * @return bytes of the notified access (which may exceed the inline payload).
     */
    public int length() {
        return first(lengthAndFlags);
    }

    /**
     * @return the caller's flags (bits of {@link NotifyLanesLayout#USER_FLAGS_MASK}).
     */
    public int flags() {
        return second(lengthAndFlags) & USER_FLAGS_MASK;
    }

    /**
     * @return bytes of inline payload, 0..{@link NotifyLanesLayout#INLINE_CAPACITY}.
     */
    public int inlineLength() {
        return second(lengthAndFlags) >>> INLINE_LENGTH_SHIFT;
    }

    /**
     * @return a read-only view of the inline payload; for a lane view, valid only during the handler call.
     */
    public MemorySegment inlinePayload() {
        return segment.asSlice(offset + INLINE_OFFSET, inlineLength()).asReadOnly();
    }

    /**
     * Copies the inline payload to {@code target} at {@code targetOffset}.
     *
     * @return bytes copied ({@link #inlineLength()}).
     * @throws IndexOutOfBoundsException if the payload does not fit in {@code target}.
     */
    public int copyInlinePayloadTo(final MemorySegment target, final long targetOffset) {
        final int inlineLength = inlineLength();
        Objects.checkFromIndexSize(targetOffset, inlineLength, target.byteSize());
        final long inline = offset + INLINE_OFFSET;
        final int words = inlineLength & ~(Long.BYTES - 1);
        // NOTE: word by word, as writeFields copies in.
        for (int i = 0; i < words; i += Long.BYTES) {
            LONG.set(target, targetOffset + i, (long)LONG.get(segment, inline + i));
        }
        for (int i = words; i < inlineLength; i++) {
            ANY_BYTE.set(target, targetOffset + i, (byte)ANY_BYTE.get(segment, inline + i));
        }
        return inlineLength;
    }

    /**
     * @param index which 8-byte word of the inline area (0 to {@link NotifyLanesLayout#INLINE_CAPACITY} / 8 - 1).
     * @return that word of the inline payload, as stored (bytes past {@link #inlineLength()} are undefined).
     */
    public long inlineWord(final int index) {
        Objects.checkIndex(index, NotifyLanesLayout.INLINE_CAPACITY / Long.BYTES);
        return (long)LONG.get(segment, offset + INLINE_OFFSET + (long)index * Long.BYTES);
    }

    /**
     * @return whether this notification owns its entry (true) or is a view of a lane slot (false).
     */
    public boolean isDetached() {
        return detached;
    }

    /**
     * @return a detached copy of this notification, inline payload included; a detached notification
     *         returns itself.
     */
    public Notification copy() {
        if (detached) {
            return this;
        }
        final MemorySegment entry = newEntry();
        MemorySegment.copy(segment, offset, entry, 0, ENTRY_LENGTH);
        return new Notification(entry, 0, true);
    }

    private static MemorySegment newEntry() {
        // A long[] backing keeps the 8-byte alignment the word accessors need.
        return MemorySegment.ofArray(new long[ENTRY_LENGTH / Long.BYTES]);
    }

    @Override
    public String toString() {
        return "Notification{source=" + source() + ", tag=" + tag() + ", displacement=" + displacement() + ", length="
            + length() + ", flags=0x" + Integer.toHexString(flags()) + ", inline=" + inlineLength()
            + (detached ? "" : ", view") + '}';
    }
}
