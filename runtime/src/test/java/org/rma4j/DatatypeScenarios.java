package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.rma4j.AccumulateScenarios.assertBytes;
import static org.rma4j.AccumulateScenarios.bytesOf;
import static org.rma4j.AccumulateScenarios.expect;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The programs of the typed put/get tests ({@link DatatypeTransferContractTest}): each runs at every
 * rank of a job and fails by throwing. Expected window contents are computed here, byte by byte,
 * from element offsets written out with the MPI definitions of vector and indexed (not from
 * {@link Datatype}'s own block lists).
 */
final class DatatypeScenarios {
    private static final byte SENTINEL = 0x77;
    private static final int WINDOW_BYTES = 512;

    private DatatypeScenarios() {
    }

    /** Runs the scenario of that name at this rank. */
    static void run(final String name, final RmaJob job) throws Throwable {
        Scenarios.invoke(DatatypeScenarios.class, name, job);
    }

    /**
     * Struct types (MPI_TYPE_CREATE_STRUCT) move element by element between layouts of the same type
     * signature: each rank puts 3 C records {@code struct { int id; double x[2]; short tag; }} (extent 32,
     * with padding) into its right neighbour's window as a packed struct (int at 0, doubles at 4 and 12,
     * short at 20; extent 24), gets them back into records, and moves pair types (MPI_DOUBLE_INT) to a
     * struct of a double and an int of the same layout. Padding is never written; a put with another
     * signature raises TYPE and changes nothing; an accumulate of the struct is refused (TYPE, naming its
     * basic types).
     */
    static void structTransfers(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int right = (me + 1) % n;
        final int left = (me + n - 1) % n;
        final Datatype record = Datatype.struct(new int[] {1, 2, 1}, new long[] {0, 8, 24},
            new Datatype[] {Datatype.INT, Datatype.DOUBLE, Datatype.SHORT});
        final Datatype packed = Datatype.struct(new int[] {1, 2, 1}, new long[] {0, 4, 20},
            new Datatype[] {Datatype.INT, Datatype.DOUBLE, Datatype.SHORT});
        try (Arena arena = Arena.ofConfined(); Window window = job.allocate(WINDOW_BYTES, 1)) {
            window.segment().fill(SENTINEL);
            final MemorySegment records = filled(arena, 3 * 32, (byte)0x11);
            for (int r = 0; r < 3; r++) {
                writeRecord(records, 32L * r, me, r);
            }
            job.barrier();
            window.lockAll();
            window.put(records, 3, record, right, 8, 3, packed);
            window.flush(right);
            job.barrier();
            // The left neighbour's records, packed at byte 8 (3 x 24 bytes, the last 2 of each unwritten).
            final byte[] expected = sentinelImage();
            for (int r = 0; r < 3; r++) {
                final MemorySegment one = filled(arena, 32, (byte)0);
                writeRecord(one, 0, left, r);
                final byte[] bytes = bytesOf(one);
                System.arraycopy(bytes, 0, expected, 8 + 24 * r, 4);
                System.arraycopy(bytes, 8, expected, 8 + 24 * r + 4, 16);
                System.arraycopy(bytes, 24, expected, 8 + 24 * r + 20, 2);
            }
            assertBytes(expected, bytesOf(window.segment()), "packed records put by rank " + left);
            job.barrier();

            final MemorySegment back = filled(arena, 3 * 32, (byte)0x22);
            window.get(back, 3, record, right, 8, 3, packed);
            for (int r = 0; r < 3; r++) {
                final long at = 32L * r;
                assertEquals(records.get(ValueLayout.JAVA_INT, at), back.get(ValueLayout.JAVA_INT, at), "id " + r);
                assertEquals(records.get(ValueLayout.JAVA_DOUBLE, at + 8), back.get(ValueLayout.JAVA_DOUBLE, at + 8));
                assertEquals(records.get(ValueLayout.JAVA_DOUBLE, at + 16), back.get(ValueLayout.JAVA_DOUBLE, at + 16));
                assertEquals(records.get(ValueLayout.JAVA_SHORT, at + 24), back.get(ValueLayout.JAVA_SHORT, at + 24));
                for (final long pad : new long[] {4, 5, 6, 7, 26, 27, 28, 29, 30, 31}) {
                    assertEquals((byte)0x22, back.get(ValueLayout.JAVA_BYTE, at + pad), "padding byte " + pad);
                }
            }

            // Two MPI_DOUBLE_INT pairs into a user struct { double; int; } at byte 128: the same signature.
            final Datatype doubleAndInt = Datatype.struct(new int[] {1, 1}, new long[] {0, 8},
                new Datatype[] {Datatype.DOUBLE, Datatype.INT});
            final MemorySegment pairs = filled(arena, 32, (byte)0x44);
            pairs.set(ValueLayout.JAVA_DOUBLE, 0, me + 0.5);
            pairs.set(ValueLayout.JAVA_INT, 8, me);
            pairs.set(ValueLayout.JAVA_DOUBLE, 16, me + 1.5);
            pairs.set(ValueLayout.JAVA_INT, 24, me + 1);
            window.put(pairs, 2, Datatype.DOUBLE_INT, right, 128, 2, doubleAndInt);
            final MemorySegment pairsBack = filled(arena, 32, (byte)0x55);
            window.get(pairsBack, 2, doubleAndInt, right, 128, 2, Datatype.DOUBLE_INT);
            assertEquals(me + 1.5, pairsBack.get(ValueLayout.JAVA_DOUBLE, 16));
            assertEquals(me + 1, pairsBack.get(ValueLayout.JAVA_INT, 24));
            assertEquals((byte)0x55, pairsBack.get(ValueLayout.JAVA_BYTE, 28), "padding of a pair is not moved");

            final byte[] before = new byte[WINDOW_BYTES];
            window.get(before, 0, WINDOW_BYTES, right, 0);
            final Datatype swapped = Datatype.struct(new int[] {2, 1, 1}, new long[] {0, 16, 20},
                new Datatype[] {Datatype.DOUBLE, Datatype.INT, Datatype.SHORT});
            expect(ErrorClass.TYPE, () -> window.put(records, 1, record, right, 0, 1, swapped),
                "type signatures differ", "[INT, DOUBLE, SHORT]", "[DOUBLE, INT, SHORT]");
            expect(ErrorClass.TYPE, () -> window.get(back, 1, record, right, 0, 4, Datatype.INT),
                "type signatures differ");
            expect(ErrorClass.TYPE, () -> window.accumulate(records, 1, record, right, 0, 1, packed, Op.REPLACE),
                "mixes the basic types [INT, DOUBLE, SHORT]", "one predefined type");
            expect(ErrorClass.TYPE, () -> window.raccumulate(records, 1, record, right, 0, 1, packed, Op.SUM),
                "mixes the basic types [INT, DOUBLE, SHORT]");
            final byte[] after = new byte[WINDOW_BYTES];
            window.get(after, 0, WINDOW_BYTES, right, 0);
            assertBytes(before, after, "the target after refused struct calls");
            window.unlockAll();
            job.barrier();
        }
    }

    private static void writeRecord(final MemorySegment records, final long at, final int rank, final int r) {
        records.set(ValueLayout.JAVA_INT, at, 1000 * rank + r);
        records.set(ValueLayout.JAVA_DOUBLE, at + 8, rank + r / 4.0);
        records.set(ValueLayout.JAVA_DOUBLE, at + 16, -rank - r / 8.0);
        records.set(ValueLayout.JAVA_SHORT, at + 24, (short)(7 * rank + r));
    }

    /**
     * Each rank puts to its right neighbour and gets back, with a vector on one side and an indexed
     * type on the other, in both directions and for int, short and double elements; then every
     * misuse raises its class and changes nothing.
     */
    static void typedTransfers(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int right = (me + 1) % n;
        final int left = (me + n - 1) % n;
        try (Arena arena = Arena.ofConfined(); Window window = job.allocate(WINDOW_BYTES, 4)) {
            window.segment().fill(SENTINEL);
            final byte[] mine = sentinelImage();
            final byte[] rights = sentinelImage();
            job.barrier();

            // Round 1, int: vector(4, 2, 3) x 2 at the origin -> indexed x 2 at byte 16 of the target.
            final Datatype vectorInts = Datatype.vector(4, 2, 3, Datatype.INT);
            final long[] vectorIntOffsets = vectorOffsets(4, 2, 3, 4, 2, vectorInts);
            final int[] lengths = {2, 1, 3, 2};
            final int[] displacements = {7, 0, 3, 12};
            final Datatype indexedInts = Datatype.indexed(lengths, displacements, Datatype.INT);
            final long[] indexedIntOffsets = indexedOffsets(lengths, displacements, 4, 2, indexedInts);
            final MemorySegment origin1 = origin(arena, me, 1, vectorInts.span(2));
            window.fence(Rma.MODE_NOPRECEDE);
            window.put(origin1, 2, vectorInts, right, 4, 2, indexedInts);
            window.fence(0);
            scatter(mine, 16, indexedIntOffsets, pattern(left, 1, vectorInts.span(2)), 0, vectorIntOffsets, 4);
            scatter(rights, 16, indexedIntOffsets, bytesOf(origin1), 0, vectorIntOffsets, 4);
            assertBytes(mine, bytesOf(window.segment()), "after put vector -> indexed");

            // ... and back: indexed x 2 at the origin <- vector x 2 at byte 16 of the target.
            final MemorySegment back1 = filled(arena, indexedInts.span(2), (byte)0x33);
            final byte[] expectedBack1 = bytesOf(back1);
            window.get(back1, 2, indexedInts, right, 4, 2, vectorInts);
            scatter(expectedBack1, 0, indexedIntOffsets, rights, 16, vectorIntOffsets, 4);
            assertBytes(expectedBack1, bytesOf(back1), "get indexed <- vector");
            window.fence(0);

            // Round 2, short: indexed x 2 at the origin -> vector(6, 2, 5) x 1 at byte 256 of the target.
            final int[] shortLengths = {3, 1, 2};
            final int[] shortDisplacements = {5, 0, 9};
            final Datatype indexedShorts = Datatype.indexed(shortLengths, shortDisplacements, Datatype.SHORT);
            final long[] indexedShortOffsets = indexedOffsets(shortLengths, shortDisplacements, 2, 2, indexedShorts);
            final Datatype vectorShorts = Datatype.vector(6, 2, 5, Datatype.SHORT);
            final long[] vectorShortOffsets = vectorOffsets(6, 2, 5, 2, 1, vectorShorts);
            final MemorySegment origin2 = origin(arena, me, 2, indexedShorts.span(2));
            window.put(origin2, 2, indexedShorts, right, 64, 1, vectorShorts);
            window.fence(0);
            scatter(mine, 256, vectorShortOffsets, pattern(left, 2, indexedShorts.span(2)), 0, indexedShortOffsets, 2);
            scatter(rights, 256, vectorShortOffsets, bytesOf(origin2), 0, indexedShortOffsets, 2);
            assertBytes(mine, bytesOf(window.segment()), "after put indexed -> vector");

            // ... and back: vector x 1 at the origin <- indexed x 2 at byte 256 of the target.
            final MemorySegment back2 = filled(arena, vectorShorts.span(1), (byte)0x44);
            final byte[] expectedBack2 = bytesOf(back2);
            window.get(back2, 1, vectorShorts, right, 64, 2, indexedShorts);
            scatter(expectedBack2, 0, vectorShortOffsets, rights, 256, indexedShortOffsets, 2);
            assertBytes(expectedBack2, bytesOf(back2), "get vector <- indexed");
            window.fence(Rma.MODE_NOSUCCEED);

            // Round 3, double in lock_all: 6 contiguous doubles -> vector(3, 1, 2, contiguous(2)) at byte 384.
            final Datatype pairs = Datatype.vector(3, 1, 2, Datatype.contiguous(2, Datatype.DOUBLE));
            final long[] pairOffsets = {0, 8, 32, 40, 64, 72};
            final long[] contiguousOffsets = {0, 8, 16, 24, 32, 40};
            assertEquals(80, pairs.extent());
            final MemorySegment origin3 = origin(arena, me, 3, 48);
            window.lockAll();
            window.put(origin3, 6, Datatype.DOUBLE, right, 96, 1, pairs);
            window.flush(right);
            window.unlockAll();
            job.barrier();
            scatter(mine, 384, pairOffsets, pattern(left, 3, 48), 0, contiguousOffsets, 8);
            scatter(rights, 384, pairOffsets, bytesOf(origin3), 0, contiguousOffsets, 8);
            assertBytes(mine, bytesOf(window.segment()), "after put contiguous -> vector of contiguous");
            job.barrier();

            // Misuse: every call raises its class and changes neither side.
            window.lockAll();
            final MemorySegment ints = origin(arena, me, 4, 64);
            final byte[] intsBefore = bytesOf(ints);
            expect(ErrorClass.TYPE, () -> window.put(ints, 4, Datatype.INT, right, 0, 4, Datatype.FLOAT),
                "type signatures differ");
            expect(ErrorClass.TYPE, () -> window.put(ints, 3, Datatype.INT, right, 0, 4, Datatype.INT),
                "type signatures differ");
            expect(ErrorClass.TYPE, () -> window.put(origin1, 2, vectorInts, right, 4, 2, indexedShorts),
                "type signatures differ");
            expect(ErrorClass.TYPE, () -> window.get(ints, 2, vectorInts, right, 0, 1, indexedInts),
                "type signatures differ");
            expect(ErrorClass.TYPE, () -> window.get(ints, 2, Datatype.LONG, right, 0, 2, Datatype.DOUBLE),
                "type signatures differ");
            expect(ErrorClass.TYPE, () -> window.put(ints, 1, null, right, 0, 1, Datatype.INT), "null");
            expect(ErrorClass.TYPE, () -> window.get(ints, 1, Datatype.INT, right, 0, 1, null), "null");
            expect(ErrorClass.COUNT, () -> window.put(origin1.asSlice(0, 80), 2, vectorInts, right, 4, 2, indexedInts),
                "smaller than");
            expect(ErrorClass.COUNT, () -> window.get(ints.asSlice(0, 60), 2, Datatype.contiguous(8, Datatype.INT),
                right, 0, 16, Datatype.INT), "smaller than");
            expect(ErrorClass.COUNT, () -> window.put(ints, -1, Datatype.INT, right, 0, -1, Datatype.INT),
                "must be >= 0");
            expect(ErrorClass.RMA_RANGE, () -> window.put(origin1, 2, vectorInts, right, 101, 2, indexedInts),
                "exceeds window size 512");
            expect(ErrorClass.RMA_RANGE, () -> window.get(back1, 2, indexedInts, right, 110, 2, vectorInts),
                "exceeds window size 512");
            expect(ErrorClass.RMA_RANGE, () -> window.rput(origin1, 2, vectorInts, right, 101, 2, indexedInts),
                "exceeds window size 512");
            assertBytes(intsBefore, bytesOf(ints), "origin after failed calls");
            assertBytes(expectedBack1, bytesOf(back1), "destination after a failed get");
            window.unlockAll();
            job.barrier();
            assertBytes(mine, bytesOf(window.segment()), "window after failed calls");
        }
    }

    /**
     * The halo exchange of a 2-D stencil: each rank owns a rows x cols row-major matrix of doubles
     * whose first and last columns are halos, and fills its neighbours' halos with a column type
     * {@code vector(rows, 1, cols, DOUBLE)} on both sides: first with put in a fence epoch, then with
     * get in a lock_all epoch.
     */
    static void haloExchange(final RmaJob job) {
        final int rows = 6;
        final int cols = 5;
        final int n = job.size();
        final int me = job.rank();
        final int right = (me + 1) % n;
        final int left = (me + n - 1) % n;
        final Datatype column = Datatype.vector(rows, 1, cols, Datatype.DOUBLE);
        try (Arena arena = Arena.ofConfined(); Window window = job.allocate(8L * rows * cols, 8)) {
            final MemorySegment matrix = window.segment();
            final MemorySegment local = arena.allocate(8L * rows * cols, 8);
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    final double value = c == 0 || c == cols - 1 ? -1.0 : cell(me, r, c);
                    matrix.setAtIndex(ValueLayout.JAVA_DOUBLE, (long)r * cols + c, value);
                    local.setAtIndex(ValueLayout.JAVA_DOUBLE, (long)r * cols + c, value);
                }
            }
            window.fence(Rma.MODE_NOPRECEDE);
            // My first interior column becomes left's right halo, my last interior column right's left halo.
            window.put(local.asSlice(8), 1, column, left, cols - 1, 1, column);
            window.put(local.asSlice(8L * (cols - 2)), 1, column, right, 0, 1, column);
            window.fence(Rma.MODE_NOSUCCEED);
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    final double expected = c == 0
                        ? cell(left, r, cols - 2)
                        : c == cols - 1 ? cell(right, r, 1) : cell(me, r, c);
                    assertEquals(expected, matrix.getAtIndex(ValueLayout.JAVA_DOUBLE, (long)r * cols + c),
                        "put halo: row " + r + " column " + c);
                }
            }
            job.barrier();

            // The same halos pulled with get into the local copy, whose halos are still -1.
            window.lockAll();
            window.get(local, 1, column, left, cols - 2, 1, column);
            window.get(local.asSlice(8L * (cols - 1)), 1, column, right, 1, 1, column);
            window.unlockAll();
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    assertEquals(matrix.getAtIndex(ValueLayout.JAVA_DOUBLE, (long)r * cols + c),
                        local.getAtIndex(ValueLayout.JAVA_DOUBLE, (long)r * cols + c),
                        "get halo: row " + r + " column " + c);
                }
            }
        }
    }

    /**
     * A 3-D grid of {@code nx x ny x nz} doubles per rank (C order) whose plane x = nx - 1 is a ghost
     * plane: each rank puts the z = 1 .. nz - 2 part of its plane x = 1 into its left neighbour's ghost
     * plane, with a
     * subarray type on both sides, in a fence epoch; then it gets the int field at byte 4 of every
     * 12-byte record of its right neighbour's record array with an hvector type into a contiguous int
     * buffer under lock_all. Expected contents come from the index formulas, not from the types.
     */
    static void subarrayHaloAndRecordField(final RmaJob job) {
        final int nx = 4;
        final int ny = 3;
        final int nz = 5;
        final int records = 6;
        final int n = job.size();
        final int me = job.rank();
        final int right = (me + 1) % n;
        final int left = (me + n - 1) % n;
        final int[] sizes = {nx, ny, nz};
        final Datatype sent = Datatype.subarray(sizes, new int[] {1, ny, nz - 2}, new int[] {1, 0, 1}, Datatype.Order.C,
            Datatype.DOUBLE);
        final Datatype ghost = Datatype.subarray(sizes, new int[] {1, ny, nz - 2}, new int[] {nx - 1, 0, 1},
            Datatype.Order.C, Datatype.DOUBLE);
        final long gridBytes = 8L * nx * ny * nz;
        try (Arena arena = Arena.ofConfined(); Window window = job.allocate(gridBytes + 12L * records, 4)) {
            final MemorySegment grid = window.segment();
            for (int x = 0; x < nx; x++) {
                for (int y = 0; y < ny; y++) {
                    for (int z = 0; z < nz; z++) {
                        grid.setAtIndex(ValueLayout.JAVA_DOUBLE, ((long)x * ny + y) * nz + z,
                            x == nx - 1 ? -1.0 : gridCell(me, x, y, z));
                    }
                }
            }
            for (int r = 0; r < records; r++) {
                grid.set(ValueLayout.JAVA_INT_UNALIGNED, gridBytes + 12L * r, -r);
                grid.set(ValueLayout.JAVA_INT_UNALIGNED, gridBytes + 12L * r + 4, me * 100 + r);
                grid.set(ValueLayout.JAVA_INT_UNALIGNED, gridBytes + 12L * r + 8, -r);
            }
            final MemorySegment local = arena.allocate(gridBytes, 8);
            local.copyFrom(grid.asSlice(0, gridBytes));
            window.fence(Rma.MODE_NOPRECEDE);
            window.put(local, 1, sent, left, 0, 1, ghost);
            window.fence(Rma.MODE_NOSUCCEED);
            for (int x = 0; x < nx; x++) {
                for (int y = 0; y < ny; y++) {
                    for (int z = 0; z < nz; z++) {
                        final boolean received = x == nx - 1 && z >= 1 && z <= nz - 2;
                        final double expected = received
                            ? gridCell(right, 1, y, z)
                            : x == nx - 1 ? -1.0 : gridCell(me, x, y, z);
                        assertEquals(expected, grid.getAtIndex(ValueLayout.JAVA_DOUBLE, ((long)x * ny + y) * nz + z),
                            "grid x " + x + " y " + y + " z " + z);
                    }
                }
            }
            job.barrier();

            final Datatype field = Datatype.hvector(records, 1, 12, Datatype.INT);
            final MemorySegment fields = arena.allocate(4L * records, 4);
            window.lockAll();
            // Displacement unit 4: the first record's field is at byte gridBytes + 4.
            window.get(fields, records, Datatype.INT, right, (gridBytes + 4) / 4, 1, field);
            window.unlockAll();
            for (int r = 0; r < records; r++) {
                assertEquals(right * 100 + r, fields.getAtIndex(ValueLayout.JAVA_INT, r), "record " + r + " field");
            }
            job.barrier();
        }
    }

    private static double gridCell(final int rank, final int x, final int y, final int z) {
        return rank * 1000.0 + x * 100.0 + y * 10.0 + z + 0.5;
    }

    private static double cell(final int rank, final int row, final int col) {
        return rank * 1000.0 + row * 10.0 + col + 0.25;
    }

    // ---------------------------------------------------------------- reference layouts

    /**
     * Byte offsets of the elements of {@code instances} x MPI_TYPE_VECTOR(count, blocklength, stride)
     * in type-map order, checking the type's extent against the definition.
     */
    static long[] vectorOffsets(final int count, final int blocklength, final int stride, final int bytes,
        final int instances, final Datatype type) {
        final long extent = ((long)(count - 1) * stride + blocklength) * bytes;
        assertEquals(extent, type.extent(), type + " extent");
        final long[] offsets = new long[instances * count * blocklength];
        int k = 0;
        for (int instance = 0; instance < instances; instance++) {
            for (int block = 0; block < count; block++) {
                for (int j = 0; j < blocklength; j++) {
                    offsets[k++] = instance * extent + ((long)block * stride + j) * bytes;
                }
            }
        }
        return offsets;
    }

    /**
     * Byte offsets of the elements of {@code instances} x MPI_TYPE_INDEXED(lengths, displacements) in
     * type-map order, checking the type's extent against the definition.
     */
    static long[] indexedOffsets(final int[] lengths, final int[] displacements, final int bytes, final int instances,
        final Datatype type) {
        long extent = 0;
        int elements = 0;
        for (int b = 0; b < lengths.length; b++) {
            if (lengths[b] > 0) {
                extent = Math.max(extent, (long)(displacements[b] + lengths[b]) * bytes);
            }
            elements += lengths[b];
        }
        assertEquals(extent, type.extent(), type + " extent");
        final long[] offsets = new long[instances * elements];
        int k = 0;
        for (int instance = 0; instance < instances; instance++) {
            for (int b = 0; b < lengths.length; b++) {
                for (int j = 0; j < lengths[b]; j++) {
                    offsets[k++] = instance * extent + (long)(displacements[b] + j) * bytes;
                }
            }
        }
        return offsets;
    }

    /**
     * Copies element k of the source (at sourceBase + sourceOffsets[k]) to the destination at
     * destinationBase + destinationOffsets[k], for every k.
     */
    static void scatter(final byte[] destination, final long destinationBase, final long[] destinationOffsets,
        final byte[] source, final long sourceBase, final long[] sourceOffsets, final int bytes) {
        assertEquals(destinationOffsets.length, sourceOffsets.length, "element counts of the reference");
        for (int k = 0; k < sourceOffsets.length; k++) {
            System.arraycopy(source, (int)(sourceBase + sourceOffsets[k]), destination,
                (int)(destinationBase + destinationOffsets[k]), bytes);
        }
    }

    private static byte[] sentinelImage() {
        final byte[] image = new byte[WINDOW_BYTES];
        Arrays.fill(image, SENTINEL);
        return image;
    }

    /** A rank's origin bytes for one round: distinct per rank, round and position. */
    private static byte[] pattern(final int rank, final int round, final long size) {
        final byte[] bytes = new byte[(int)size];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte)(rank * 64 + round * 16 + i * 7 + 1);
        }
        return bytes;
    }

    private static MemorySegment origin(final Arena arena, final int rank, final int round, final long size) {
        final MemorySegment segment = arena.allocate(size, 8);
        segment.copyFrom(MemorySegment.ofArray(pattern(rank, round, size)));
        return segment;
    }

    private static MemorySegment filled(final Arena arena, final long size, final byte value) {
        final MemorySegment segment = arena.allocate(size, 8);
        segment.fill(value);
        return segment;
    }
}
