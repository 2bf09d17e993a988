package org.rma4j.internal;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import org.rma4j.shm.Align;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.Words;

/**
 * Layout of an attach chunk file: slots for the regions one rank attached to a dynamic window
 * (MPI_WIN_ATTACH, MPI-3.1 section 11.2.4). Chunk {@code c} of rank {@code r} of a window whose file is
 * {@code win-N} is the file {@code win-N-attach-r-c}; it holds {@link #slots(int) 64 << c} slots, so the
 * chunks of a rank number its slots 0, 1, 2, ... without ever moving one ({@link #chunkOf}). Only rank r
 * writes its chunks; every origin maps them and reads. The window file's attach block of rank r counts the
 * chunks and logs the changes ({@link WindowLayout}).
 *
 * <pre>
 *   0                                   24                                64
 *   +-----------------------------------+----------------------------------+
 *   | FileHeader (magic RMA4JATT, v1)   | chunk number (int) | pad         |
 *   +-----------------------------------+----------------------------------+ 64
 *   | slot 0 (64 B, one cache line):                                       |
 *   |   0 sequence (long): even = free, odd = attached; +1 at each change  |
 *   |   8 address (long)  16 length (long)  24 file offset (long)          |
 *   |   32 file name (SharedNames, 32 B): the job file holding the region  |
 *   +----------------------------------------------------------------------+
 *   | slot 1 ...                                                           |
 * </pre>
 *
 * Publication rule (a sequence lock per slot, the owner the only writer): the owner writes a slot's
 * fields only while its sequence is even (free), then makes it odd with a release store (attach); a
 * detach makes it even again with a release store. A reader loads the sequence (acquire), reads the
 * fields, issues a load-load fence and loads the sequence again: if both loads saw the same odd value,
 * the fields are those of that attach; an even value means the slot is free. A reader never waits for
 * the owner: a slot being rewritten reads as free or as retry-able, never as torn.
 */
public final class AttachChunkLayout {
    /** "RMA4JATT" in ASCII. */
    public static final long MAGIC = 0x524D41344A415454L;
    /** Format version. */
    public static final int VERSION = 1;

    /** The chunk's number (int), after the {@link FileHeader}. */
    public static final int CHUNK_NUMBER_OFFSET = FileHeader.LENGTH;
    /** Start of the first slot. */
    public static final int SLOTS_OFFSET = Align.CACHE_LINE;
    /** Slots of chunk 0; chunk c holds {@code FIRST_CHUNK_SLOTS << c}. */
    public static final int FIRST_CHUNK_SLOTS = 64;
    /** Chunks one rank may create: {@code 64 * (2^25 - 1)} slots in all, slot numbers fit an int. */
    public static final int MAX_CHUNKS = 25;

    /** Bytes of a slot. */
    public static final int SLOT_LENGTH = Align.CACHE_LINE;
    /** Slot: sequence word (long). */
    public static final int SEQUENCE_OFFSET = 0;
    /** Slot: address of the region in its owner's process (long). */
    public static final int ADDRESS_OFFSET = SEQUENCE_OFFSET + Long.BYTES;
    /** Slot: length of the region in bytes (long). */
    public static final int LENGTH_OFFSET = ADDRESS_OFFSET + Long.BYTES;
    /** Slot: offset of the region in the file that holds it (long). */
    public static final int FILE_OFFSET_OFFSET = LENGTH_OFFSET + Long.BYTES;
    /** Slot: name of the file that holds the region ({@link SharedNames}). */
    public static final int FILE_NAME_OFFSET = FILE_OFFSET_OFFSET + Long.BYTES;
    /** Bytes of the file name field. */
    public static final int FILE_NAME_LENGTH = SLOT_LENGTH - FILE_NAME_OFFSET;

    private AttachChunkLayout() {
    }

    /**
     * @return the slots of chunk {@code chunk}.
     */
    public static long slots(final int chunk) {
        return (long)FIRST_CHUNK_SLOTS << chunk;
    }

    /**
     * @return the first slot number of chunk {@code chunk}.
     */
    public static long firstSlot(final int chunk) {
        return FIRST_CHUNK_SLOTS * ((1L << chunk) - 1);
    }

    /**
     * @return the chunk that holds slot number {@code slot}.
     */
    public static int chunkOf(final long slot) {
        return Long.SIZE - 1 - Long.numberOfLeadingZeros(slot / FIRST_CHUNK_SLOTS + 1);
    }

    /**
     * @return the length of the file of chunk {@code chunk}.
     */
    public static long fileLength(final int chunk) {
        return SLOTS_OFFSET + slots(chunk) * SLOT_LENGTH;
    }

    /**
     * @return the offset of slot number {@code slot} in the file of its chunk.
     */
    public static long slotOffset(final long slot) {
        return SLOTS_OFFSET + (slot - firstSlot(chunkOf(slot))) * SLOT_LENGTH;
    }

    /**
     * @return the file name of chunk {@code chunk} of {@code rank} of the window whose file is {@code window}.
     */
    public static String fileName(final String window, final int rank, final int chunk) {
        return window + "-attach-" + rank + "-" + chunk;
    }

    /**
     * The owner's attach: writes the fields of a free (even) slot, then publishes it attached (release).
     */
    public static void attach(final MemorySegment chunk, final long slotOffset, final long address, final long length,
        final String fileName, final long fileOffset) {
        final long sequence = Words.getLong(chunk, slotOffset + SEQUENCE_OFFSET);
        Words.putLong(chunk, slotOffset + ADDRESS_OFFSET, address);
        Words.putLong(chunk, slotOffset + LENGTH_OFFSET, length);
        Words.putLong(chunk, slotOffset + FILE_OFFSET_OFFSET, fileOffset);
        SharedNames.put(chunk, slotOffset + FILE_NAME_OFFSET, FILE_NAME_LENGTH, fileName);
        // NOTE: the fields must be visible before the odd sequence that vouches for them.
        Words.putLongRelease(chunk, slotOffset + SEQUENCE_OFFSET, sequence + 1);
    }

    /**
     * The owner's detach of an attached (odd) slot: publishes it free (release).
     */
    public static void detach(final MemorySegment chunk, final long slotOffset) {
        final long sequence = Words.getLong(chunk, slotOffset + SEQUENCE_OFFSET);
        Words.putLongRelease(chunk, slotOffset + SEQUENCE_OFFSET, sequence + 1);
    }

    /** A consistent read of an attached slot. */
    public record Slot(long address, long length, long fileOffset, String fileName) {
    }

    /**
     * Reads a slot consistently against a concurrent rewrite by its owner.
     *
     * @return the slot's region, or null if the slot is free.
     */
    public static Slot read(final MemorySegment chunk, final long slotOffset) {
        while (true) {
            final long before = Words.getLongAcquire(chunk, slotOffset + SEQUENCE_OFFSET);
            if ((before & 1) == 0) {
                return null;
            }
            final long address = Words.getLong(chunk, slotOffset + ADDRESS_OFFSET);
            final long length = Words.getLong(chunk, slotOffset + LENGTH_OFFSET);
            final long fileOffset = Words.getLong(chunk, slotOffset + FILE_OFFSET_OFFSET);
            final String fileName = SharedNames.get(chunk, slotOffset + FILE_NAME_OFFSET, FILE_NAME_LENGTH);
            // NOTE: the field loads must complete before the second load of the sequence.
            VarHandle.loadLoadFence();
            if (Words.getLong(chunk, slotOffset + SEQUENCE_OFFSET) == before) {
                return new Slot(address, length, fileOffset, fileName);
            }
        }
    }
}
