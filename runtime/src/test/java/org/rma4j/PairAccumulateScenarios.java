package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.rma4j.AccumulateScenarios.expect;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.rma4j.internal.AtomicPairs;

/**
 * The programs of the pair-type contract tests ({@link PairAccumulateContractTest}): MINLOC and MAXLOC on
 * every pair type (MPI-3.1 section 5.9.4) through accumulate, get_accumulate and fetch_and_op, in races
 * from every rank with exact expected results, and the errors of pair types. Races use
 * {@code rma4j.test.pairOperations} operations per rank and slot (2,000 unless set).
 */
final class PairAccumulateScenarios {
    /** Iterations per rank in the races; process mode raises it. */
    static final String OPERATIONS_PROP_NAME = "rma4j.test.pairOperations";
    static final int OPERATIONS_DEFAULT = 2_000;

    /** Distinct values of {@link #value}: few, so ties between indices are frequent. */
    private static final int VALUES = 61;

    private PairAccumulateScenarios() {
    }

    private static int operations() {
        return Integer.getInteger(OPERATIONS_PROP_NAME, OPERATIONS_DEFAULT);
    }

    /** The pair types as datatypes, in {@link Datatype.Pair} order. */
    static final Datatype[] PAIR_TYPES = {Datatype.LONG_INT, Datatype.INT2, Datatype.DOUBLE_INT, Datatype.FLOAT_INT,
        Datatype.SHORT_INT};

    /** One target pair of the races: its type, op and byte offset in rank 0's window. */
    private record Slot(Datatype type, Op op, long offset) {
        Datatype.Pair pair() {
            return type.pair().orElseThrow();
        }
    }

    /**
     * The race slots: a MINLOC and a MAXLOC pair of every pair type at its natural alignment, and the 8-byte
     * pair types once more at an offset of 4 mod 8 (which one compare-and-set cannot reach: the pair locks).
     */
    private static List<Slot> slots() {
        final List<Slot> slots = new ArrayList<>();
        long offset = 0;
        for (final Datatype type : PAIR_TYPES) {
            for (final Op op : new Op[] {Op.MINLOC, Op.MAXLOC}) {
                slots.add(new Slot(type, op, offset));
                offset += 16;
            }
        }
        for (final Datatype type : new Datatype[] {Datatype.INT2, Datatype.FLOAT_INT, Datatype.SHORT_INT}) {
            for (final Op op : new Op[] {Op.MINLOC, Op.MAXLOC}) {
                slots.add(new Slot(type, op, offset + 4));
                offset += 16;
            }
        }
        return slots;
    }

    /** The value every origin pairs with global index {@code index}: -30..30, each taken by many indices. */
    static int value(final long index) {
        return (int)Math.floorMod(index * 7919L + 13, VALUES) - VALUES / 2;
    }

    /**
     * Every rank combines (value(i), i) for its own indices i = rank * operations + k into every slot at rank
     * 0, by turns with accumulate, get_accumulate and fetch_and_op. Afterwards each MINLOC slot holds the
     * smallest value and, of the indices with that value, the smallest index; each MAXLOC slot the largest
     * value and its smallest index. Every pair get_accumulate and fetch_and_op returned was a whole pair some
     * rank wrote (its value is value(its index)), and the pairs each rank saw move only towards the result.
     */
    static void minMaxLocRaces(final RmaJob job) {
        final int n = job.size();
        final int operations = operations();
        final List<Slot> slots = slots();
        try (Arena arena = Arena.ofConfined();
            Window window = job.allocate(job.rank() == 0 ? 16L * slots.size() : 0, 1)) {
            if (job.rank() == 0) {
                for (final Slot slot : slots) {
                    // No index takes this value: the initial pair loses every comparison.
                    final int initial = slot.op == Op.MINLOC ? VALUES : -VALUES;
                    AtomicPairs.write(slot.pair(), window.segment(), slot.offset, bits(slot.pair(), initial),
                        Integer.MAX_VALUE);
                }
            }
            final MemorySegment origin = arena.allocate(16, 16);
            final MemorySegment result = arena.allocate(16, 16);
            final long[][] seen = new long[slots.size()][];
            job.barrier();
            window.lockAll();
            for (int k = 0; k < operations; k++) {
                final int index = job.rank() * operations + k;
                for (int s = 0; s < slots.size(); s++) {
                    final Slot slot = slots.get(s);
                    final Datatype.Pair pair = slot.pair();
                    AtomicPairs.write(pair, origin, 0, bits(pair, value(index)), index);
                    switch ((k + s) % 3) {
                        case 0 -> window.accumulate(origin, 1, slot.type, 0, slot.offset, 1, slot.type, slot.op);
                        case 1 -> {
                            window.getAccumulate(origin, 1, slot.type, result, 1, slot.type, 0, slot.offset, 1,
                                slot.type, slot.op);
                            seen[s] = checkSeen(slot, result, seen[s]);
                        }
                        default -> {
                            window.fetchAndOp(origin, result, slot.type, 0, slot.offset, slot.op);
                            seen[s] = checkSeen(slot, result, seen[s]);
                        }
                    }
                }
            }
            window.unlockAll();
            job.barrier();
            window.lockAll();
            for (final Slot slot : slots) {
                window.getAccumulate(null, 0, slot.type, result, 1, slot.type, 0, slot.offset, 1, slot.type, Op.NO_OP);
                final long[] expected = expected(slot.op, (long)n * operations);
                final Datatype.Pair pair = slot.pair();
                assertEquals(expected[0], number(pair, AtomicPairs.readValue(pair, result, 0)),
                    slot + ": value after the race");
                assertEquals(expected[1], AtomicPairs.readIndex(pair, result, 0), slot + ": index after the race");
            }
            window.unlockAll();
            job.barrier();
        }
    }

    /**
     * The lost-update check of the pair atomics: every rank combines pairs (v, i) with a globally unique
     * index i = k * ranks + rank and value v = -i for MINLOC, +i for MAXLOC, always with get_accumulate or
     * fetch_and_op, so each origin learns whether its pair was installed (it beat the previous pair) and
     * what it replaced. If every update is atomic, the installed pairs form one chain from the initial pair
     * to the final one, in which each pair is replaced exactly once: the sum of the replaced values equals
     * the initial value plus the sum of the installed values minus the final value, and the final pair is
     * that of the last index. Two updates that both read the same previous pair (a lost update) count it
     * twice and break the sum. Every returned pair also satisfies v = -i or v = +i (no torn pair).
     */
    static void minLocChains(final RmaJob job) {
        final int n = job.size();
        final List<Slot> slots = slots();
        final long sums = 16L * slots.size();
        try (Arena arena = Arena.ofConfined();
            Window window = job.allocate(job.rank() == 0 ? sums + 16L * slots.size() : 0, 1)) {
            if (job.rank() == 0) {
                for (final Slot slot : slots) {
                    AtomicPairs.write(slot.pair(), window.segment(), slot.offset, bits(slot.pair(), initial(slot)),
                        Integer.MAX_VALUE);
                }
            }
            final MemorySegment origin = arena.allocate(16, 16);
            final MemorySegment result = arena.allocate(16, 16);
            final long[] installedSums = new long[slots.size()];
            final long[] replacedSums = new long[slots.size()];
            job.barrier();
            window.lockAll();
            for (int k = 0; k < operations(); k++) {
                for (int s = 0; s < slots.size(); s++) {
                    final Slot slot = slots.get(s);
                    if (k >= chainLength(slot, n)) {
                        continue;
                    }
                    final Datatype.Pair pair = slot.pair();
                    final int index = k * n + job.rank();
                    final long value = slot.op == Op.MINLOC ? -index : index;
                    AtomicPairs.write(pair, origin, 0, bits(pair, value), index);
                    if ((k + s) % 2 == 0) {
                        window.getAccumulate(origin, 1, slot.type, result, 1, slot.type, 0, slot.offset, 1, slot.type,
                            slot.op);
                    } else {
                        window.fetchAndOp(origin, result, slot.type, 0, slot.offset, slot.op);
                    }
                    final long previous = number(pair, AtomicPairs.readValue(pair, result, 0));
                    final int previousIndex = AtomicPairs.readIndex(pair, result, 0);
                    if (!(previousIndex == Integer.MAX_VALUE && previous == initial(slot))
                        && (previousIndex < 0 || previous != (slot.op == Op.MINLOC ? -previousIndex : previousIndex))) {
                        fail(slot + " returned a torn pair (" + previous + ", " + previousIndex + ")");
                    }
                    if (slot.op == Op.MINLOC ? value < previous : value > previous) {
                        installedSums[s] += value;
                        replacedSums[s] += previous;
                    }
                }
            }
            final MemorySegment sum = arena.allocate(16, 8);
            for (int s = 0; s < slots.size(); s++) {
                sum.set(ValueLayout.JAVA_LONG, 0, installedSums[s]);
                sum.set(ValueLayout.JAVA_LONG, 8, replacedSums[s]);
                window.accumulate(sum, 2, Datatype.LONG, 0, sums + 16L * s, 2, Datatype.LONG, Op.SUM);
            }
            window.unlockAll();
            job.barrier();
            window.lockAll();
            for (int s = 0; s < slots.size(); s++) {
                final Slot slot = slots.get(s);
                final Datatype.Pair pair = slot.pair();
                window.getAccumulate(null, 0, slot.type, result, 1, slot.type, 0, slot.offset, 1, slot.type, Op.NO_OP);
                final int last = chainLength(slot, n) * n - 1;
                final long finalValue = number(pair, AtomicPairs.readValue(pair, result, 0));
                assertEquals(slot.op == Op.MINLOC ? -last : last, finalValue, slot + ": the final value");
                assertEquals(last, AtomicPairs.readIndex(pair, result, 0), slot + ": the final index");
                window.getAccumulate(null, 0, Datatype.LONG, sum, 2, Datatype.LONG, 0, sums + 16L * s, 2, Datatype.LONG,
                    Op.NO_OP);
                assertEquals(initial(slot) + sum.get(ValueLayout.JAVA_LONG, 0) - finalValue,
                    sum.get(ValueLayout.JAVA_LONG, 8),
                    slot + ": replaced values = initial + installed - final (each installed pair replaced once)");
            }
            window.unlockAll();
            job.barrier();
        }
    }

    /**
     * @return the value of the initial pair of a chain: beaten by every index.
     */
    private static long initial(final Slot slot) {
        return slot.op == Op.MINLOC ? 1 : -1;
    }

    /**
     * @return the iterations of a chain: fewer for SHORT_INT, whose values must stay within a short.
     */
    private static int chainLength(final Slot slot, final int ranks) {
        return slot.pair() == Datatype.Pair.SHORT_INT ? Math.min(operations(), Short.MAX_VALUE / ranks) : operations();
    }

    /**
     * @return the (value, index) MINLOC or MAXLOC leaves after indices 0..indices-1 were combined.
     */
    private static long[] expected(final Op op, final long indices) {
        long best = op == Op.MINLOC ? Long.MAX_VALUE : Long.MIN_VALUE;
        long bestIndex = -1;
        for (long i = 0; i < indices; i++) {
            final int v = value(i);
            if (op == Op.MINLOC ? v < best : v > best) {
                best = v;
                bestIndex = i;
            }
        }
        return new long[] {best, bestIndex};
    }

    /**
     * Checks a previous pair a rank got back: a whole pair (value(index)) or the initial pair, and not
     * before the previous pair this rank saw in the order the op moves the slot.
     *
     * @return the pair, as (value, index).
     */
    private static long[] checkSeen(final Slot slot, final MemorySegment result, final long[] before) {
        final Datatype.Pair pair = slot.pair();
        final long value = number(pair, AtomicPairs.readValue(pair, result, 0));
        final int index = AtomicPairs.readIndex(pair, result, 0);
        final boolean initial = index == Integer.MAX_VALUE && Math.abs(value) == VALUES;
        if (!initial && (index < 0 || value != value(index))) {
            fail(slot + " returned a torn pair (" + value + ", " + index + "): value(" + index + ") is "
                + (index < 0 ? "undefined" : value(index)));
        }
        final long[] now = {value, index};
        if (before != null) {
            final boolean forward = slot.op == Op.MINLOC
                ? value < before[0] || value == before[0] && index <= before[1]
                : value > before[0] || value == before[0] && index <= before[1];
            if (!forward) {
                fail(slot + " went back from (" + before[0] + ", " + before[1] + ") to (" + value + ", " + index + ")");
            }
        }
        return now;
    }

    /**
     * MINLOC and MAXLOC of derived types of pairs, element by element: contiguous(3, DOUBLE_INT), a vector of
     * INT2 against a contiguous origin, a struct of FLOAT_INT records, with get_accumulate returning every
     * previous pair into a result of another layout of the same pair type; fetch_and_op with REPLACE and
     * NO_OP on each pair type. Rank r targets rank (r + 1) % n; only the pairs' bytes change.
     */
    static void derivedPairTypes(final RmaJob job) {
        final int n = job.size();
        final int right = (job.rank() + 1) % n;
        try (Arena arena = Arena.ofConfined(); Window window = job.allocateShared(256, 1)) {
            window.segment().fill((byte)0x5A);
            final MemorySegment origin = arena.allocate(256, 16);
            final MemorySegment result = arena.allocate(256, 16);
            final Datatype three = Datatype.contiguous(3, Datatype.DOUBLE_INT);
            for (int i = 0; i < 3; i++) {
                AtomicPairs.write(Datatype.Pair.DOUBLE_INT, window.segment(), 16L * i,
                    bits(Datatype.Pair.DOUBLE_INT, 10 * i), 100 + i);
                AtomicPairs.write(Datatype.Pair.DOUBLE_INT, origin, 16L * i, bits(Datatype.Pair.DOUBLE_INT, 10),
                    50 + i);
            }
            job.barrier();
            final byte[] before = window.sharedQuery(right).segment().toArray(ValueLayout.JAVA_BYTE);
            window.lockAll();
            window.getAccumulate(origin, 1, three, result, 3, Datatype.DOUBLE_INT, right, 0, 1, three, Op.MINLOC);
            window.flush(right);
            final MemorySegment target = window.sharedQuery(right).segment();
            // (0, 100) keeps, (10, 101) ties with (10, 51): index 51; (20, 102) loses to (10, 52).
            assertPairs(Datatype.Pair.DOUBLE_INT, target, 0, 16, new long[][] {{0, 100}, {10, 51}, {10, 52}});
            assertPairs(Datatype.Pair.DOUBLE_INT, result, 0, 16, new long[][] {{0, 100}, {10, 101}, {20, 102}});

            // Two INT2 pairs 24 bytes apart (vector of 1 pair, stride 3 pairs) at byte 64, from a packed origin.
            final Datatype spread = Datatype.vector(2, 1, 3, Datatype.INT2);
            AtomicPairs.write(Datatype.Pair.INT2, origin, 0, 7, 7);
            AtomicPairs.write(Datatype.Pair.INT2, origin, 8, -7, 8);
            window.accumulate(origin, 2, Datatype.INT2, right, 64, 1, spread, Op.MAXLOC);
            // The window held 0x5A5A5A5A in both halves: 7 < 0x5A5A5A5A keeps, -7 too.
            assertPairs(Datatype.Pair.INT2, target, 64, 24,
                new long[][] {{0x5A5A5A5A, 0x5A5A5A5A}, {0x5A5A5A5A, 0x5A5A5A5A}});
            window.accumulate(origin, 2, Datatype.INT2, right, 64, 1, spread, Op.REPLACE);
            assertPairs(Datatype.Pair.INT2, target, 64, 24, new long[][] {{7, 7}, {-7, 8}});

            // struct of two FLOAT_INT records at 0 and 16 (extent 24), at byte 128.
            final Datatype records = Datatype.struct(new int[] {1, 1}, new long[] {0, 16},
                new Datatype[] {Datatype.FLOAT_INT, Datatype.FLOAT_INT});
            AtomicPairs.write(Datatype.Pair.FLOAT_INT, origin, 0, bits(Datatype.Pair.FLOAT_INT, 3), 30);
            AtomicPairs.write(Datatype.Pair.FLOAT_INT, origin, 8, bits(Datatype.Pair.FLOAT_INT, 4), 40);
            window.accumulate(origin, 2, Datatype.FLOAT_INT, right, 128, 1, records, Op.REPLACE);
            AtomicPairs.write(Datatype.Pair.FLOAT_INT, origin, 0, bits(Datatype.Pair.FLOAT_INT, 3), 2);
            AtomicPairs.write(Datatype.Pair.FLOAT_INT, origin, 8, bits(Datatype.Pair.FLOAT_INT, 5), 41);
            window.accumulate(origin, 2, Datatype.FLOAT_INT, right, 128, 1, records, Op.MAXLOC);
            assertPairs(Datatype.Pair.FLOAT_INT, target, 128, 16, new long[][] {{3, 2}, {5, 41}});

            // fetch_and_op on every pair type at byte 192: REPLACE returns the old pair, NO_OP reads.
            for (final Datatype type : PAIR_TYPES) {
                final Datatype.Pair pair = type.pair().orElseThrow();
                AtomicPairs.write(pair, origin, 0, bits(pair, -1), 9);
                window.fetchAndOp(origin, result, type, right, 192, Op.REPLACE);
                window.fetchAndOp(null, result, type, right, 192, Op.NO_OP);
                assertPairs(pair, result, 0, 16, new long[][] {{-1, 9}});
                AtomicPairs.write(pair, origin, 0, bits(pair, -2), 11);
                window.fetchAndOp(origin, result, type, right, 192, Op.MINLOC);
                assertPairs(pair, result, 0, 16, new long[][] {{-1, 9}});
                assertPairs(pair, target, 192, 16, new long[][] {{-2, 11}});
            }
            window.unlockAll();
            // Only the pairs' value and index bytes changed.
            final byte[] after = target.toArray(ValueLayout.JAVA_BYTE);
            final boolean[] written = new boolean[256];
            markPairs(written, 0, 16, 3, Datatype.Pair.DOUBLE_INT);
            markPairs(written, 64, 24, 2, Datatype.Pair.INT2);
            markPairs(written, 128, 16, 2, Datatype.Pair.FLOAT_INT);
            for (final Datatype type : PAIR_TYPES) {
                markPairs(written, 192, 16, 1, type.pair().orElseThrow());
            }
            for (int i = 0; i < after.length; i++) {
                if (!written[i]) {
                    assertEquals(before[i], after[i], "byte " + i + " of rank " + right + " is no pair's and changed");
                }
            }
            job.barrier();
        }
    }

    /**
     * The errors of pair types, each leaving the target window unchanged: SUM on a pair type and MINLOC on
     * a basic type (OP), accumulate of a struct of several basic types (TYPE naming them), different pair
     * types or a pair against two ints (TYPE), compare_and_swap and notified accumulate of a pair type
     * (TYPE), a pair not aligned to its type (DISP).
     */
    static void pairTypeErrors(final RmaJob job) {
        final int right = (job.rank() + 1) % job.size();
        try (Arena arena = Arena.ofConfined(); Window window = job.allocate(64, 1)) {
            window.segment().fill((byte)0x33);
            final MemorySegment origin = arena.allocate(64, 16);
            final MemorySegment result = arena.allocate(64, 16);
            job.barrier();
            window.lockAll();
            final byte[] before = new byte[64];
            window.get(before, 0, 64, right, 0);
            for (final Datatype type : PAIR_TYPES) {
                for (final Op op : Op.values()) {
                    if (op == Op.MINLOC || op == Op.MAXLOC || op == Op.REPLACE || op == Op.NO_OP) {
                        continue;
                    }
                    expect(ErrorClass.OP, () -> window.accumulate(origin, 1, type, right, 0, 1, type, op), op.mpiName(),
                        type.pair().orElseThrow().mpiName());
                    expect(ErrorClass.OP, () -> window.fetchAndOp(origin, result, type, right, 0, op), op.mpiName());
                }
                expect(ErrorClass.TYPE, () -> window.compareAndSwap(origin, origin, result, type, right, 0),
                    "compareAndSwap datatype " + type);
                expect(ErrorClass.TYPE, () -> window.accumulateNotify(origin, 1, type, right, 0, Op.REPLACE, 1),
                    "pair type");
            }
            expect(ErrorClass.OP,
                () -> window.accumulate(origin, 1, Datatype.INT, right, 0, 1, Datatype.INT, Op.MINLOC), "MPI_MINLOC",
                "INT");
            expect(ErrorClass.OP, () -> window.fetchAndOp(1L, right, 0, Op.MAXLOC), "MPI_MAXLOC");
            final Datatype record = Datatype.struct(new int[] {1, 1}, new long[] {0, 8},
                new Datatype[] {Datatype.INT, Datatype.DOUBLE});
            expect(ErrorClass.TYPE, () -> window.accumulate(origin, 1, record, right, 0, 1, record, Op.REPLACE),
                "accumulate datatype struct([1, 1], [0, 8], [INT, DOUBLE]) mixes the basic types [INT, DOUBLE]");
            expect(ErrorClass.TYPE,
                () -> window.getAccumulate(origin, 1, record, result, 1, record, right, 0, 1, record, Op.NO_OP),
                "mixes the basic types [INT, DOUBLE]");
            expect(ErrorClass.TYPE, () -> window.accumulate(origin, 1, record, right, 0, 2, Datatype.LONG, Op.SUM),
                "mixes the basic types [INT, DOUBLE]");
            expect(ErrorClass.TYPE,
                () -> window.accumulate(origin, 1, Datatype.DOUBLE_INT, right, 0, 1, Datatype.LONG_INT, Op.MINLOC),
                "MPI_DOUBLE_INT", "MPI_LONG_INT");
            expect(ErrorClass.TYPE,
                () -> window.accumulate(origin, 2, Datatype.INT, right, 0, 1, Datatype.INT2, Op.REPLACE),
                "INT elements", "MPI_2INT elements");
            expect(ErrorClass.TYPE,
                () -> window.fetchAndOp(origin, result, Datatype.contiguous(1, Datatype.INT2), right, 0, Op.MINLOC),
                "must be a predefined basic type");
            expect(ErrorClass.DISP,
                () -> window.accumulate(origin, 1, Datatype.DOUBLE_INT, right, 4, 1, Datatype.DOUBLE_INT, Op.MINLOC),
                "alignment 8 of its pair type MPI_DOUBLE_INT");
            expect(ErrorClass.DISP, () -> window.fetchAndOp(origin, result, Datatype.INT2, right, 2, Op.MAXLOC),
                "alignment 4 of its pair type MPI_2INT");
            // A DISP error for a later pair of a derived type changes no earlier pair either.
            final Datatype skewed = Datatype.hindexed(new int[] {1, 1}, new long[] {0, 20}, Datatype.LONG_INT);
            expect(ErrorClass.DISP,
                () -> window.accumulate(origin, 2, Datatype.LONG_INT, right, 0, 1, skewed, Op.REPLACE), "MPI_LONG_INT");
            final byte[] after = new byte[64];
            window.get(after, 0, 64, right, 0);
            assertArrayEquals(before, after, "the target window after the refused calls");
            window.unlockAll();
            job.barrier();
        }
    }

    private static void markPairs(final boolean[] written, final int start, final int stride, final int count,
        final Datatype.Pair pair) {
        for (int p = 0; p < count; p++) {
            final int at = start + p * stride;
            for (int b = 0; b < pair.valueType().bytes(); b++) {
                written[at + b] = true;
            }
            for (int b = 0; b < Integer.BYTES; b++) {
                written[at + pair.indexOffset() + b] = true;
            }
        }
    }

    private static void assertPairs(final Datatype.Pair pair, final MemorySegment segment, final long start,
        final long stride, final long[][] expected) {
        for (int p = 0; p < expected.length; p++) {
            final long offset = start + p * stride;
            assertEquals(expected[p][0], number(pair, AtomicPairs.readValue(pair, segment, offset)),
                pair + " value of pair " + p);
            assertEquals(expected[p][1], AtomicPairs.readIndex(pair, segment, offset), pair + " index of pair " + p);
        }
    }

    /**
     * @return the raw bits of {@code value} as the pair's value type.
     */
    static long bits(final Datatype.Pair pair, final long value) {
        return switch (pair.valueType()) {
            case FLOAT -> Float.floatToRawIntBits(value);
            case DOUBLE -> Double.doubleToRawLongBits(value);
            default -> value;
        };
    }

    /**
     * @return the value whose raw bits are {@code bits}, as a long (the race values are whole numbers).
     */
    static long number(final Datatype.Pair pair, final long bits) {
        return switch (pair.valueType()) {
            case FLOAT -> (long)Float.intBitsToFloat((int)bits);
            case DOUBLE -> (long)Double.longBitsToDouble(bits);
            default -> bits;
        };
    }
}
