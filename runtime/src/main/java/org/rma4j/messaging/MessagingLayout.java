package org.rma4j.messaging;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.rma4j.ErrorClass;
import org.rma4j.RmaException;
import org.rma4j.shm.Align;

/**
 * Layout of one rank's part of the window of a {@link Messaging} object (displacement unit 1). Every
 * rank's part has the same layout; offsets below are from the start of the part.
 *
 * <pre>
 *   0                                                                          128
 *   +-------------------------------------------------------------------------+
 *   | header: 0 magic (long) | 8 version (int) | 12 ranks (int)                |
 *   |   16 bounceBytesPerPeer as requested (long) | 24 ring bytes (long)       |
 *   |   32 chunk bytes (long) | pad to 128   (written once by the owner before |
 *   |   the creation barrier, read-only afterwards)                            |
 *   +-------------------------------------------------------------------------+ 128
 *   | chunk signal: 128 B, never written: the target of zero-length            |
 *   |   "next rendezvous chunk staged" notifications                           |
 *   +-------------------------------------------------------------------------+ 256
 *   | credit table: ranks x 8 B (long), padded to 128:                         |
 *   |   word d = bytes of this rank's bounce ring at d that d has consumed     |
 *   |   (written only by the owner: inline payloads copied at its own drains); |
 *   |   an empty notification at word d is d asking for the credit it is owed  |
 *   +-------------------------------------------------------------------------+
 *   | rendezvous table: ranks x 24 B, padded to 128: entry s = the rendezvous  |
 *   |   message rank s announced: 0 length (long) | 8 sender's pid (long, 0:    |
 *   |   staged) | 16 address of the sender's buffer (long), the last two for a  |
 *   |   direct read (written by rank s's notified put, read after its drain)    |
 *   +-------------------------------------------------------------------------+
 *   | clear-to-send table: ranks x 24 B, padded to 128: entry r = rank r's     |
 *   |   answer to this rank's direct rendezvous: 0 r's pid (long) | 8 address  |
 *   |   of the receive's buffer (long) | 16 bytes this rank writes there from  |
 *   |   the start (long) (written by rank r's notified put)                    |
 *   +-------------------------------------------------------------------------+
 *   | bounce rings: ranks x ringBytes (multiple of 128):                       |
 *   |   ring s holds rank s's eager payloads, each at a 64-byte boundary       |
 *   |   (written by rank s); a message of up to 32 B from a rank of this node |
 *   |   takes no ring bytes: it travels in its notification only, which      |
 *   |   names the ring's byte 8 (where no payload starts)                     |
 *   +-------------------------------------------------------------------------+
 *   | staging: ranks x 2 x chunkBytes (multiple of 128):                       |
 *   |   pair d holds this rank's rendezvous chunks to d, chunk k in half k & 1 |
 *   |   (written by the owner, read by d)                                      |
 *   +-------------------------------------------------------------------------+
 * </pre>
 *
 * Publication: every region is filled before the notification that announces it is offered (the
 * ring's release store), and read only after that notification was drained (acquire); a region is
 * reused only after the notification that frees it (credit or acknowledgement) was drained. Regions
 * written by different processes start 128 bytes apart (two cache lines, for the adjacent-line
 * prefetcher); within a ring, eager payloads of one sender start on 64-byte boundaries.
 */
final class MessagingLayout {
    /** "RMA4JMSG" in ASCII. */
    static final long MAGIC = 0x524D_4134_4A4D_5347L;
    /** Layout version, checked by every peer that reads the header. */
    static final int VERSION = 2;

    /** {@link #MAGIC} (long). */
    static final int MAGIC_OFFSET = 0;
    /** {@link #VERSION} (int). */
    static final int VERSION_OFFSET = MAGIC_OFFSET + Long.BYTES;
    /** Ranks of the job (int). */
    static final int RANKS_OFFSET = VERSION_OFFSET + Integer.BYTES;
    /** bounceBytesPerPeer as the owner requested it (long). */
    static final int BOUNCE_BYTES_OFFSET = RANKS_OFFSET + Integer.BYTES;
    /** Capacity of one bounce ring (long). */
    static final int RING_BYTES_OFFSET = BOUNCE_BYTES_OFFSET + Long.BYTES;
    /** Bytes of one rendezvous chunk (long). */
    static final int CHUNK_BYTES_OFFSET = RING_BYTES_OFFSET + Long.BYTES;
    /** The header: its fields padded to {@link Align#PAD}. */
    static final int HEADER_LENGTH = (int)Align.up(CHUNK_BYTES_OFFSET + Long.BYTES, Align.PAD);

    /** The chunk signal region (never written), right after the header. */
    static final int CHUNK_SIGNAL_OFFSET = HEADER_LENGTH;
    /** Length of the chunk signal region. */
    static final int CHUNK_SIGNAL_LENGTH = Align.PAD;
    /** The credit table; the rendezvous table, rings and staging follow at offsets that depend on ranks. */
    static final int CREDIT_TABLE_OFFSET = CHUNK_SIGNAL_OFFSET + CHUNK_SIGNAL_LENGTH;

    /**
     * Displacement in a sender's bounce ring that the notification of an inline-only message names (see
     * {@link #inlineOnlyOffset}): no payload starts there (payloads start at {@link #RECORD_ALIGNMENT} boundaries).
     */
    static final int INLINE_ONLY_POSITION = Long.BYTES;
    /** Alignment of each eager payload in a bounce ring. */
    static final int RECORD_ALIGNMENT = Align.CACHE_LINE;
    /** Alignment of regions written by different processes. */
    static final int REGION_ALIGNMENT = Align.PAD;

    /** Bytes of an entry of the rendezvous table: length, pid and address ({@link #RTS_PID}, {@link #RTS_ADDRESS}). */
    static final int RTS_ENTRY_BYTES = 3 * Long.BYTES;
    /** The sender's pid in a rendezvous entry (long): 0 if the message is staged, else it is read directly. */
    static final int RTS_PID = Long.BYTES;
    /** The address of the sender's buffer in its process, in a rendezvous entry (long), for a direct read. */
    static final int RTS_ADDRESS = 2 * Long.BYTES;

    /** Bytes of an entry of the clear-to-send table: pid, address and length ({@link #CTS_ADDRESS}). */
    static final int CTS_ENTRY_BYTES = 3 * Long.BYTES;
    /** The address of the receive's buffer in the receiver's process, in a clear-to-send entry (long). */
    static final int CTS_ADDRESS = Long.BYTES;
    /** The bytes the sender writes into the receive's buffer from its start, in a clear-to-send entry (long). */
    static final int CTS_BYTES = 2 * Long.BYTES;

    /** Smallest rendezvous chunk (the chunk is the ring size clamped to [MIN, MAX]). */
    static final long CHUNK_BYTES_MIN = 64 * 1024;
    /** Largest rendezvous chunk. */
    static final long CHUNK_BYTES_MAX = 1024 * 1024;
    /** Largest bounceBytesPerPeer accepted. */
    static final long BOUNCE_BYTES_MAX = 1L << 30;

    private final int ranks;
    private final long bounceBytes;
    private final long ringBytes;
    private final long chunkBytes;
    private final long rtsTableOffset;
    private final long ctsTableOffset;
    private final long ringsOffset;
    private final long stagingOffset;
    private final long partBytes;

    /**
     * @param ranks       ranks of the job.
     * @param bounceBytes the eager limit, 0..{@link #BOUNCE_BYTES_MAX}.
     */
    MessagingLayout(final int ranks, final long bounceBytes) {
        this.ranks = ranks;
        this.bounceBytes = bounceBytes;
        this.ringBytes = Math.max(REGION_ALIGNMENT, Align.up(bounceBytes, REGION_ALIGNMENT));
        this.chunkBytes = Math.min(Math.max(ringBytes, CHUNK_BYTES_MIN), CHUNK_BYTES_MAX);
        final long table = Align.up(8L * ranks, REGION_ALIGNMENT);
        this.rtsTableOffset = CREDIT_TABLE_OFFSET + table;
        this.ctsTableOffset = rtsTableOffset + Align.up((long)RTS_ENTRY_BYTES * ranks, REGION_ALIGNMENT);
        this.ringsOffset = ctsTableOffset + Align.up((long)CTS_ENTRY_BYTES * ranks, REGION_ALIGNMENT);
        this.stagingOffset = Math.addExact(ringsOffset, Math.multiplyExact(ringBytes, ranks));
        this.partBytes = Math.addExact(stagingOffset, Math.multiplyExact(2 * chunkBytes, ranks));
    }

    /**
     * @return bytes a ring slot takes for an eager payload of {@code lengthBytes}: 0 for an empty
     *         message, else the length rounded up to {@link #RECORD_ALIGNMENT}.
     */
    static long recordBytes(final long lengthBytes) {
        return Align.up(lengthBytes, RECORD_ALIGNMENT);
    }

    int ranks() {
        return ranks;
    }

    /** @return the largest message sent eagerly (bounceBytesPerPeer). */
    long bounceBytes() {
        return bounceBytes;
    }

    /** @return the capacity of one bounce ring. */
    long ringBytes() {
        return ringBytes;
    }

    /** @return the bytes of one rendezvous chunk (half of a staging pair). */
    long chunkBytes() {
        return chunkBytes;
    }

    /** @return the size of one rank's part of the window. */
    long partBytes() {
        return partBytes;
    }

    /** @return chunks of a rendezvous message of {@code lengthBytes}. */
    long chunks(final long lengthBytes) {
        return (lengthBytes + chunkBytes - 1) / chunkBytes;
    }

    /** @return where the word of the credit that {@code receiver} returns to the owner is. */
    long creditOffset(final int receiver) {
        return CREDIT_TABLE_OFFSET + 8L * receiver;
    }

    /** @return where the rendezvous entry of a message announced by {@code sender} is (its length first). */
    long rtsOffset(final int sender) {
        return rtsTableOffset + (long)RTS_ENTRY_BYTES * sender;
    }

    /** @return where {@code receiver}'s clear-to-send entry for this part's owner's direct rendezvous is. */
    long ctsOffset(final int receiver) {
        return ctsTableOffset + (long)CTS_ENTRY_BYTES * receiver;
    }

    /** @return where the bounce ring of {@code sender} starts. */
    long ringOffset(final int sender) {
        return ringsOffset + ringBytes * sender;
    }

    /**
     * @return the displacement the notification of an inline-only message from {@code sender} names: a message of
     *         up to {@link org.rma4j.NotifyRequest#INLINE_BYTES} between ranks of one node travels in its notification
     *         only and takes no bytes of the sender's ring (nor credit).
     */
    long inlineOnlyOffset(final int sender) {
        return ringOffset(sender) + INLINE_ONLY_POSITION;
    }

    /** @return where the owner stages chunk {@code chunk} of a rendezvous message to {@code receiver}. */
    long stagingOffset(final int receiver, final long chunk) {
        return stagingOffset + 2 * chunkBytes * receiver + (chunk & 1) * chunkBytes;
    }

    /** What a notification's displacement in this layout announces. */
    enum Region {
        CHUNK_SIGNAL, CREDIT, RENDEZVOUS, CLEAR_TO_SEND, BOUNCE, STAGING
    }

    /**
     * @return the region holding displacement {@code disp}.
     * @throws IllegalStateException if {@code disp} is in none (a protocol error).
     */
    Region regionOf(final long disp) {
        if (disp >= stagingOffset && disp < partBytes) {
            return Region.STAGING;
        }
        if (disp >= ringsOffset && disp < stagingOffset) {
            return Region.BOUNCE;
        }
        if (disp >= ctsTableOffset && disp < ctsTableOffset + (long)CTS_ENTRY_BYTES * ranks) {
            return Region.CLEAR_TO_SEND;
        }
        if (disp >= rtsTableOffset && disp < rtsTableOffset + (long)RTS_ENTRY_BYTES * ranks) {
            return Region.RENDEZVOUS;
        }
        if (disp >= CREDIT_TABLE_OFFSET && disp < CREDIT_TABLE_OFFSET + 8L * ranks) {
            return Region.CREDIT;
        }
        if (disp == CHUNK_SIGNAL_OFFSET) {
            return Region.CHUNK_SIGNAL;
        }
        throw new IllegalStateException(
            "messaging notification at displacement " + disp + " is in no region of " + this);
    }

    /**
     * @return the rank whose slot of {@code region} holds displacement {@code disp}.
     */
    int ownerOf(final Region region, final long disp) {
        return (int)switch (region) {
            case CREDIT -> (disp - CREDIT_TABLE_OFFSET) / 8;
            case RENDEZVOUS -> (disp - rtsTableOffset) / RTS_ENTRY_BYTES;
            case CLEAR_TO_SEND -> (disp - ctsTableOffset) / CTS_ENTRY_BYTES;
            case BOUNCE -> (disp - ringsOffset) / ringBytes;
            case STAGING -> (disp - stagingOffset) / (2 * chunkBytes);
            case CHUNK_SIGNAL -> -1;
        };
    }

    /**
     * Writes the header of the owner's part; {@code requestedBounceBytes} is recorded as the caller
     * gave it, so that every rank can check every other's value.
     */
    void writeHeader(final MemorySegment part, final long requestedBounceBytes) {
        part.set(ValueLayout.JAVA_LONG, MAGIC_OFFSET, MAGIC);
        part.set(ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION);
        part.set(ValueLayout.JAVA_INT, RANKS_OFFSET, ranks);
        part.set(ValueLayout.JAVA_LONG, BOUNCE_BYTES_OFFSET, requestedBounceBytes);
        part.set(ValueLayout.JAVA_LONG, RING_BYTES_OFFSET, ringBytes);
        part.set(ValueLayout.JAVA_LONG, CHUNK_BYTES_OFFSET, chunkBytes);
        part.asSlice(CREDIT_TABLE_OFFSET, ringsOffset - CREDIT_TABLE_OFFSET).fill((byte)0);
    }

    /**
     * @return the bounceBytesPerPeer that {@code owner} requested, read from its header.
     * @throws IllegalStateException if the header is not a messaging header of this version.
     */
    static long requestedBounceBytes(final MemorySegment part, final int owner) {
        final long magic = part.get(ValueLayout.JAVA_LONG, MAGIC_OFFSET);
        final int version = part.get(ValueLayout.JAVA_INT, VERSION_OFFSET);
        if (magic != MAGIC || version != VERSION) {
            throw new IllegalStateException("part of rank " + owner + " has no messaging header of version " + VERSION
                + " (magic 0x" + Long.toHexString(magic) + ", version " + version + ")");
        }
        return part.get(ValueLayout.JAVA_LONG, BOUNCE_BYTES_OFFSET);
    }

    /**
     * Checks what {@code owner} wrote into its header besides the bounce bytes (checked by the caller)
     * against this layout: ranks, ring bytes, chunk bytes.
     *
     * @return null, or an RmaException (OTHER) naming the owner, the field, the expected and the found value.
     */
    RmaException checkHeader(final MemorySegment part, final int owner) {
        final String mismatch = mismatch("ranks", ranks, part.get(ValueLayout.JAVA_INT, RANKS_OFFSET));
        final String ring = mismatch("ring bytes", ringBytes, part.get(ValueLayout.JAVA_LONG, RING_BYTES_OFFSET));
        final String chunk = mismatch("chunk bytes", chunkBytes, part.get(ValueLayout.JAVA_LONG, CHUNK_BYTES_OFFSET));
        final String found = mismatch != null ? mismatch : ring != null ? ring : chunk;
        return found == null
            ? null
            : new RmaException(ErrorClass.OTHER, "Messaging.create: the header of rank " + owner
                + "'s part of the messaging window does not match this rank's layout: " + found);
    }

    private static String mismatch(final String field, final long expected, final long found) {
        return expected == found ? null : field + " expected " + expected + ", found " + found;
    }

    @Override
    public String toString() {
        return "MessagingLayout{ranks=" + ranks + ", bounceBytes=" + bounceBytes + ", ringBytes=" + ringBytes
            + ", chunkBytes=" + chunkBytes + ", partBytes=" + partBytes + '}';
    }
}
