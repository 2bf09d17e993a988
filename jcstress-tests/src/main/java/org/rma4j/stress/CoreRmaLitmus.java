package org.rma4j.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.foreign.MemorySegment;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;
import org.openjdk.jcstress.infra.results.JJ_Result;
import org.openjdk.jcstress.infra.results.J_Result;
import org.rma4j.Datatype;
import org.rma4j.Op;
import org.rma4j.Window;
import org.rma4j.stress.RankPair.Epoch;
import org.rma4j.stress.RankPair.WindowSpec;

/**
 * The litmus programs of coreRMA (Dan, Lam, Hoefler, Vechev, "Modeling and Analysis of Remote Memory Access
 * Programming", OOPSLA 2016; shared/seeds/004): Figure 1, Figure 3 a-d, Figure 6, Figure 7 and Figure 8,
 * translated to rma4j.
 *
 * <p>Translation: the shared variables are window memory under lock_all at both ranks (coreRMA has no
 * epochs; lock_all makes every put, get, rga, cas and flush legal at any time). A variable "belonging to"
 * a process is in that rank's part of the state's slot (X at offset 0 of its owner's part, Y at offset 0
 * of its owner's, or at offset 64 where both belong to one process). {@code x = get(y^p)} is
 * {@code get(<x's memory>, p, y)}: the get writes straight into the origin's window memory, as coreRMA's get
 * writes the origin's variable; {@code put(y^p, x)} is {@code put(<x's memory>, p, y)};
 * {@code x = rga(z^p, v)} is {@code getAccumulate(v, result = x, target z, SUM)};
 * {@code x = cas(z^p, v, w)} is {@code compareAndSwap(origin = w, compare = v, result = x, target z)};
 * {@code flush(p)} is {@code flush(p)}; local reads and writes are plain loads and stores. Processes p1, p2
 * (or P0, P1) are ranks 0, 1.
 *
 * <p>Grading follows each figure's allowed set: outcomes coreRMA allows are ACCEPTABLE, those it allows but
 * sequential consistency does not (each statement's actions in program order, statements of the two ranks
 * interleaved at action granularity, checked by enumeration) are ACCEPTABLE_INTERESTING, the rest
 * FORBIDDEN. coreRMA's undefined value (⊤) of a racy non-atomic access cannot show as a new value here: all
 * values written to a location differ only in their lowest byte, so a torn access still reads one of them,
 * and the catch-all stays FORBIDDEN. rma4j performs each operation at its call in program order (docs/design.md
 * "Decisions"; coreRMA's in-order routing rule IR holds), so the interesting outcomes are allowed but not
 * expected. Where rma4j promises more than coreRMA allows, a sibling test grades rma4j's promise
 * ({@link Figure3cInOrder}: in-order routing, as {@link Figure6} does).
 */
public final class CoreRmaLitmus {
    static final long X = 0;
    static final long Y = 0;
    static final long Y_OF_P0 = 64;

    private CoreRmaLitmus() {
    }

    private static final class Job {
        static final RankPair PAIR = RankPair.start("CoreRmaLitmus", WindowSpec.of(128, Epoch.LOCK_ALL));
    }

    /** One state's slot in both ranks' parts. */
    abstract static class Slot {
        final Window rank0 = Job.PAIR.window(0, 0);
        final Window rank1 = Job.PAIR.window(0, 1);
        final MemorySegment memory0 = Job.PAIR.local(0, 0);
        final MemorySegment memory1 = Job.PAIR.local(0, 1);
        final long base = Job.PAIR.offset(0, Job.PAIR.nextSlot());

        Slot() {
            memory0.asSlice(base, 128).fill((byte)0);
            memory1.asSlice(base, 128).fill((byte)0);
        }

        /** 8 bytes of window memory at {@code offset} of this slot, as a buffer for get, put, rga and cas. */
        final MemorySegment at(final MemorySegment memory, final long offset) {
            return memory.asSlice(base + offset, Long.BYTES);
        }
    }

    @JCStressTest
    @Description("coreRMA Figure 1. X (p1) = 0, Y (p2) = 1. p1: X = get(Y^p2); a = X. p2: Y = get(X^p1); b = Y.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "p2's get read X and wrote Y before p1's get read Y.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "p1's get read Y and wrote X before p2's get read X.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "The gets interleaved: both read the initial values before either wrote (non-atomic get).")
    @Outcome(id = "0, 1", expect = ACCEPTABLE_INTERESTING, desc = "RMA only: the local reads ran before their own gets' writes (no flush orders them).")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class Figure1 extends Slot {
        public Figure1() {
            Local.putLong(memory1, base + Y, 1);
        }

        @Actor
        public void p1(final JJ_Result r) {
            rank0.get(at(memory0, X), 1, base + Y);
            r.r1 = Local.getLong(memory0, base + X);
        }

        @Actor
        public void p2(final JJ_Result r) {
            rank1.get(at(memory1, Y), 0, base + X);
            r.r2 = Local.getLong(memory1, base + Y);
        }
    }

    @JCStressTest
    @Description("coreRMA Figure 3a (get: out of order). X (p1) = 0, Y (p2) = 0. p1: X = get(Y^p2); X = 1; a = X. "
        + "p2 runs no statement.")
    @Outcome(id = "1", expect = ACCEPTABLE, desc = "The get's write of X came before X = 1 (SC).")
    @Outcome(id = "0", expect = ACCEPTABLE_INTERESTING, desc = "RMA only: the get completed after X = 1 and overwrote it.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class Figure3a extends Slot {
        @Actor
        public void p1(final J_Result r) {
            rank0.get(at(memory0, X), 1, base + Y);
            Local.putLong(memory0, base + X, 1);
            r.r1 = Local.getLong(memory0, base + X);
        }
    }

    @JCStressTest
    @Description("coreRMA Figure 3b (put: out of order). X (p1) = 0, Y (p2) = 0. p1: put(Y^p2, X); X = 1. "
        + "p2: b = Y.")
    @Outcome(id = "0", expect = ACCEPTABLE, desc = "p2 read Y before the put, or after a put that read X = 0 (SC).")
    @Outcome(id = "1", expect = ACCEPTABLE_INTERESTING, desc = "RMA only: the put read X after p1's later X = 1, and p2 read Y after the put.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class Figure3b extends Slot {
        @Actor
        public void p1() {
            rank0.put(at(memory0, X), 1, base + Y);
            Local.putLong(memory0, base + X, 1);
        }

        @Actor
        public void p2(final J_Result r) {
            r.r1 = Local.getLong(memory1, base + Y);
        }
    }

    @JCStressTest
    @Description("coreRMA Figure 3c (put-get sequence). X (p1) = 1, Y (p2) = 0. p1: put(Y^p2, X); X = get(Y^p2); "
        + "flush(p2); c = X. p2 runs no statement.")
    @Outcome(id = "1", expect = ACCEPTABLE, desc = "The get read Y after the put wrote it (SC; always with IR).")
    @Outcome(id = "0", expect = ACCEPTABLE_INTERESTING, desc = "RMA without in-order routing: the get read Y before the put wrote it (impossible with IR, "
        + "which rma4j keeps).")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class Figure3c extends Slot {
        public Figure3c() {
            Local.putLong(memory0, base + X, 1);
        }

        @Actor
        public void p1(final J_Result r) {
            rank0.put(at(memory0, X), 1, base + Y);
            rank0.get(at(memory0, X), 1, base + Y);
            rank0.flush(1);
            r.r1 = Local.getLong(memory0, base + X);
        }
    }

    @JCStressTest
    @Description("coreRMA Figure 3c graded by rma4j's guarantee (README \"Semantics\": operations from one origin "
        + "to one target take effect in program order, coreRMA's in-order routing IR). X (p1) = 1, Y (p2) = 0. "
        + "p1: put(Y^p2, X); X = get(Y^p2); flush(p2); c = X. p2 runs no statement.")
    @Outcome(id = "1", expect = ACCEPTABLE, desc = "The get read Y after the put wrote it.")
    @Outcome(id = "0", expect = FORBIDDEN, desc = "The get read Y before the earlier put to the same target wrote it: in-order routing violated.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class Figure3cInOrder extends Slot {
        public Figure3cInOrder() {
            Local.putLong(memory0, base + X, 1);
        }

        @Actor
        public void p1(final J_Result r) {
            rank0.put(at(memory0, X), 1, base + Y);
            rank0.get(at(memory0, X), 1, base + Y);
            rank0.flush(1);
            r.r1 = Local.getLong(memory0, base + X);
        }
    }

    @JCStressTest
    @Description("coreRMA Figure 3d (get-put sequence). X (p1) = 1, Y (p2) = 0. p1: X = get(Y^p2); put(Y^p2, X); "
        + "flush(p2); X = get(Y^p2); d = X. p2 runs no statement.")
    @Outcome(id = "0", expect = ACCEPTABLE, desc = "The put read X after the first get wrote 0 into it (SC).")
    @Outcome(id = "1", expect = ACCEPTABLE_INTERESTING, desc = "RMA only, even with IR: the put read X (still 1) before the first get's local write.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class Figure3d extends Slot {
        public Figure3d() {
            Local.putLong(memory0, base + X, 1);
        }

        @Actor
        public void p1(final J_Result r) {
            rank0.get(at(memory0, X), 1, base + Y);
            rank0.put(at(memory0, X), 1, base + Y);
            rank0.flush(1);
            rank0.get(at(memory0, X), 1, base + Y);
            r.r1 = Local.getLong(memory0, base + X);
        }
    }

    @JCStressTest
    @Description("coreRMA Figure 6 (IR pivot). X (P0) = 1, Y (P1) = 0. P0: a = X. P1: put(X^0, Y); Y = get(X^0); "
        + "flush(0); b = Y. The OCR lists (0,0), (1,2); no statement writes 2, so (docs/design.md \"Decisions\") the "
        + "allowed set is (0,0), (1,0).")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "P0 read X after P1's put wrote 0; the get read that 0.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "P0 read X before P1's put; the get read the put's 0.")
    @Outcome(id = "[01], 1", expect = FORBIDDEN, desc = "The get read X before the earlier put to the same target wrote it: in-order routing violated "
        + "(what Cray DMAPP showed in the paper).")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class Figure6 extends Slot {
        public Figure6() {
            Local.putLong(memory0, base + X, 1);
        }

        @Actor
        public void p0(final JJ_Result r) {
            r.r1 = Local.getLong(memory0, base + X);
        }

        @Actor
        public void p1(final JJ_Result r) {
            rank1.put(at(memory1, Y), 0, base + X);
            rank1.get(at(memory1, Y), 0, base + X);
            rank1.flush(0);
            r.r2 = Local.getLong(memory1, base + Y);
        }
    }

    @JCStressTest
    @Description("coreRMA Figure 7, left (cas; one process). X = 1, Y = 0, both at P0. P0: Y = cas(Y^0, X, Y); "
        + "b = Y; a = Y. The OCR prints the third statement as \"a=7v\"; the listed outcome (a,b) = (0,0) with "
        + "X = 1 throughout makes it a = Y.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The cas compared Y (0) with X (1), failed, and returned 0.")
    @Outcome(expect = FORBIDDEN, desc = "The cas succeeded or returned a value Y never held (Portals 4 showed b = 1).")
    @State
    public static class Figure7Cas extends Slot {
        public Figure7Cas() {
            Local.putLong(memory0, base + X, 1);
        }

        @Actor
        public void p0(final JJ_Result r) {
            rank0.compareAndSwap(at(memory0, Y_OF_P0), at(memory0, X), at(memory0, Y_OF_P0), Datatype.LONG, 0,
                base + Y_OF_P0);
            r.r2 = Local.getLong(memory0, base + Y_OF_P0);
            r.r1 = Local.getLong(memory0, base + Y_OF_P0);
        }
    }

    @JCStressTest
    @Description("coreRMA Figure 7, right (rga; one process). X = 0, Y = 1, both at P0. P0: Y = get(Y^0); b = Y; "
        + "Y = rga(Y^0, X); c = Y; a = Y. Outcome (a, b, c).")
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "X is 0, so the rga adds nothing and every read is 1.")
    @Outcome(expect = FORBIDDEN, desc = "A value above 1 (Portals 4 showed a = 2, c = 2): the rga added to itself.")
    @State
    public static class Figure7Rga extends Slot {
        public Figure7Rga() {
            Local.putLong(memory0, base + Y_OF_P0, 1);
        }

        @Actor
        public void p0(final JJJ_Result r) {
            rank0.get(at(memory0, Y_OF_P0), 0, base + Y_OF_P0);
            r.r2 = Local.getLong(memory0, base + Y_OF_P0);
            rank0.getAccumulate(at(memory0, X), 1, Datatype.LONG, at(memory0, Y_OF_P0), 1, Datatype.LONG, 0,
                base + Y_OF_P0, 1, Datatype.LONG, Op.SUM);
            r.r3 = Local.getLong(memory0, base + Y_OF_P0);
            r.r1 = Local.getLong(memory0, base + Y_OF_P0);
        }
    }

    @JCStressTest
    @Description("coreRMA Figure 8 (IR not enforced on Verbs). X (P0) = 1, Y (P1) = 0. P0: a = X; X = 2; b = X. "
        + "P1: Y = get(X^0); put(X^0, Y); flush(0); c = Y. Outcome (a, b, c).")
    @Outcome(id = "1, 2, 1", expect = ACCEPTABLE, desc = "P1's get read 1 and its put wrote 1 before X = 2, or after b = X.")
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "P1's get read 1; its put wrote 1 between X = 2 and b = X.")
    @Outcome(id = "1, 2, 2", expect = ACCEPTABLE, desc = "P1's get read X after X = 2 and put 2 back.")
    @Outcome(id = "0, 2, 1", expect = ACCEPTABLE_INTERESTING, desc = "RMA only: the put read Y (0) before the get wrote it, and wrote 0 into X before a = X.")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "RMA only: the put read Y (0) before the get's write, and wrote 0 between X = 2 and b = X.")
    @Outcome(id = "1, 0, 2", expect = ACCEPTABLE_INTERESTING, desc = "RMA only: the get read 2, but the put read Y (0) before the get's write and wrote 0 before b = X.")
    @Outcome(expect = FORBIDDEN, desc = "Outside the figure's allowed set.")
    @State
    public static class Figure8 extends Slot {
        public Figure8() {
            Local.putLong(memory0, base + X, 1);
        }

        @Actor
        public void p0(final JJJ_Result r) {
            r.r1 = Local.getLong(memory0, base + X);
            Local.putLong(memory0, base + X, 2);
            r.r2 = Local.getLong(memory0, base + X);
        }

        @Actor
        public void p1(final JJJ_Result r) {
            rank1.get(at(memory1, Y), 0, base + X);
            rank1.put(at(memory1, Y), 0, base + X);
            rank1.flush(0);
            r.r3 = Local.getLong(memory1, base + Y);
        }
    }
}
