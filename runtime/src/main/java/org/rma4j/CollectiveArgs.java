package org.rma4j;

import java.lang.foreign.MemorySegment;

/**
 * Argument checks of the data collectives on a communicator. Each throws {@link RmaException} with the
 * MPI error class and the offending values; the collectives catch it and hand it to the
 * {@link Exchange}, so that every member throws (the member at fault with this error) and the
 * communicator stays in step.
 */
final class CollectiveArgs {
    /** An empty stream. */
    static final MemorySegment[] NONE = new MemorySegment[0];

    private CollectiveArgs() {
    }

    /** A check that may throw {@link RmaException}. */
    @FunctionalInterface
    interface Check {
        void run();
    }

    /**
     * @return the RmaException {@code check} throws, or null.
     */
    static RmaException problem(final Check check) {
        try {
            check.run();
            return null;
        } catch (final RmaException e) {
            return e;
        }
    }

    static void checkRoot(final String call, final CommContext context, final int root) {
        if (root < 0 || root >= context.size()) {
            throw new RmaException(ErrorClass.ROOT,
                call + " root=" + root + " is outside the communicator's ranks 0.." + (context.size() - 1));
        }
    }

    /**
     * @throws RmaException TYPE unless {@code type} is a basic or contiguous type.
     */
    static void checkType(final String call, final Datatype type) {
        if (type == null || !type.isContiguous()) {
            throw new RmaException(ErrorClass.TYPE, call + " datatype " + type + " must be a basic or contiguous type");
        }
    }

    /**
     * @throws RmaException OP unless {@code op} reduces elements of {@code type} (REPLACE and NO_OP are
     *                      one-sided only).
     */
    static void checkReduction(final String call, final Datatype type, final Op op) {
        checkType(call, type);
        Checks.checkOp(call, op, type);
        if (op == Op.REPLACE || op == Op.NO_OP) {
            throw new RmaException(ErrorClass.OP,
                call + " op " + op.mpiName() + " is valid only in one-sided accumulates");
        }
    }

    /**
     * @return the bytes of {@code count} elements of {@code type}.
     * @throws RmaException COUNT for a negative count or an overflow.
     */
    static long bytes(final String call, final String what, final long count, final Datatype type) {
        if (count < 0) {
            throw new RmaException(ErrorClass.COUNT, call + " " + what + "=" + count + " is negative");
        }
        try {
            return Math.multiplyExact(count, type.size());
        } catch (final ArithmeticException e) {
            throw new RmaException(ErrorClass.COUNT, call + " " + what + "=" + count + " x " + type + " overflows");
        }
    }

    /**
     * @throws RmaException ARG for a null buffer, COUNT for one shorter than {@code bytes}.
     */
    static void checkBuffer(final String call, final String name, final MemorySegment buffer, final long bytes) {
        if (buffer == null) {
            throw new RmaException(ErrorClass.ARG, call + " " + name + " buffer is null");
        }
        if (buffer.byteSize() < bytes) {
            throw new RmaException(ErrorClass.COUNT,
                call + " " + name + " buffer of " + buffer.byteSize() + " bytes is smaller than " + bytes + " bytes");
        }
    }

    /**
     * @throws RmaException COUNT unless {@code buffer} holds a whole number of elements of {@code type}.
     */
    static long elements(final String call, final String name, final MemorySegment buffer, final Datatype type) {
        checkBuffer(call, name, buffer, 0);
        if (buffer.byteSize() % type.size() != 0) {
            throw new RmaException(ErrorClass.COUNT, call + " " + name + " buffer of " + buffer.byteSize()
                + " bytes is not a whole number of " + type + " (" + type.size() + " bytes)");
        }
        return buffer.byteSize() / type.size();
    }

    /**
     * The places of the members' blocks in a buffer of a v-variant (MPI-3.1 section 5.5): block m has
     * {@code counts[m]} elements of {@code type} at {@code displs[m]} extents of it.
     *
     * @return per member {start byte, length in bytes}, flattened: [2m] start, [2m + 1] length.
     * @throws RmaException COUNT for counts or displacements that are missing, negative, or place a block
     *                      outside the buffer.
     */
    static long[] blocks(final String call, final String name, final MemorySegment buffer, final int[] counts,
        final int[] displs, final Datatype type, final int members) {
        if (counts == null || displs == null || counts.length != members || displs.length != members) {
            throw new RmaException(ErrorClass.COUNT,
                call + " " + name + " counts and displacements must have one" + " entry per rank (" + members
                    + "), not " + (counts == null ? "null" : counts.length) + " and "
                    + (displs == null ? "null" : displs.length));
        }
        checkBuffer(call, name, buffer, 0);
        final long[] blocks = new long[2 * members];
        for (int m = 0; m < members; m++) {
            final long length = bytes(call, name + "Counts[" + m + "]", counts[m], type);
            if (displs[m] < 0) {
                throw new RmaException(ErrorClass.COUNT,
                    call + " " + name + "Displs[" + m + "]=" + displs[m] + " is negative");
            }
            final long start = (long)displs[m] * type.extent();
            if (start + length > buffer.byteSize()) {
                throw new RmaException(ErrorClass.COUNT,
                    call + " block of rank " + m + " (" + counts[m] + " x " + type + " at displacement " + displs[m]
                        + ") ends at byte " + (start + length) + ", past the " + name + " buffer of "
                        + buffer.byteSize() + " bytes");
            }
            blocks[2 * m] = start;
            blocks[2 * m + 1] = length;
        }
        return blocks;
    }

    /**
     * @return a digest every member must pass alike: of the count, the basic type, its size and the op.
     */
    static long agreement(final long count, final Datatype type, final Op op) {
        long digest = count;
        digest = digest * 31 + (op == null ? -1 : op.ordinal());
        digest = digest * 31 + (type == null ? -1 : type.basic().ordinal());
        return digest * 31 + (type == null ? -1 : type.size());
    }

    /**
     * Copies the part of a chunk at stream positions {@code offset .. offset + chunk length} that falls in
     * {@code [from, from + length)} of the stream to {@code into} at {@code at + (position - from)}.
     */
    static void copyRange(final MemorySegment chunk, final long offset, final long from, final long length,
        final MemorySegment into, final long at) {
        final long start = Math.max(offset, from);
        final long end = Math.min(offset + chunk.byteSize(), from + length);
        if (end > start) {
            MemorySegment.copy(chunk, start - offset, into, at + (start - from), end - start);
        }
    }
}
