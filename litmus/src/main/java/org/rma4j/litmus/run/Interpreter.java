package org.rma4j.litmus.run;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.rma4j.Datatype;
import org.rma4j.Group;
import org.rma4j.LockType;
import org.rma4j.NotifyRequest;
import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.litmus.syntax.Program;
import org.rma4j.litmus.syntax.Stmt;

/**
 * Runs the statements of one process of a litmus program on an rma4j window: local reads and
 * writes are volatile loads and stores of the rank's own part (so the JIT keeps them in program
 * order, as rule LO assumes); load, store and poll of another process's variable are the same
 * accesses to its part from {@code sharedQuery}; remote statements are the window's put / get /
 * accumulate / getAccumulate / compareAndSwap / putNotify / getNotify with the origin and result
 * buffers inside the rank's own part (the coreRMA statements read and write local memory
 * locations), in the variables' datatype; wait is a persistent notifyInit request (ANY_SOURCE /
 * ANY_TAG for any) whose status fills the status registers; post / start / complete / win_wait /
 * win_test are the window's PSCW calls (win_test polls MPI_Win_test until it returns true);
 * synchronizations are the window's and the job's calls. Statements are compiled once into steps.
 */
final class Interpreter {
    /** One compiled statement. */
    @FunctionalInterface
    private interface Step {
        void run(long[] registers);
    }

    private final List<Step> steps = new ArrayList<>();
    private final List<NotifyRequest> requests = new ArrayList<>();
    private final Map<String, Integer> registerIndex = new HashMap<>();
    private final RmaJob job;
    private final Window window;
    /** This rank's own part of the window. */
    private final MemorySegment own;
    private final VariableLayout layout;

    Interpreter(final Program program, final int rank, final RmaJob job, final Window window,
        final VariableLayout layout) {
        this.job = job;
        this.window = window;
        this.layout = layout;
        final List<String> registers = program.registersOf(rank);
        for (int i = 0; i < registers.size(); i++) {
            registerIndex.put(registers.get(i), i);
        }
        this.own = window.segment();
        for (final Stmt s : program.processes().get(rank)) {
            steps.add(compile(s));
        }
    }

    /** Runs the program once, calling {@code delay} before each statement. */
    void run(final long[] registers, final Runnable delay) {
        for (final Step step : steps) {
            delay.run();
            step.run(registers);
        }
    }

    /** Frees the notification requests. */
    void close() {
        requests.forEach(NotifyRequest::close);
    }

    private Step compile(final Stmt s) {
        return switch (s) {
            case Stmt.LocalRead r -> {
                final int reg = registerIndex.get(r.register());
                yield regs -> regs[reg] = layout.read(own, r.variable());
            }
            case Stmt.LocalWrite w -> regs -> layout.write(own, w.variable(), evaluate(w.value(), regs));
            case Stmt.Load l -> load(l);
            case Stmt.Store st -> store(st);
            case Stmt.Poll poll -> poll(poll);
            case Stmt.Put put -> put(put);
            case Stmt.Get get -> get(get);
            case Stmt.Acc acc -> accumulate(acc);
            case Stmt.Rga rga -> getAccumulate(rga);
            case Stmt.Cas cas -> compareAndSwap(cas);
            case Stmt.PutNotify pn -> putNotify(pn);
            case Stmt.GetNotify gn -> getNotify(gn);
            case Stmt.Wait w -> notifyWait(w);
            case Stmt.Pscw pscw -> pscw(pscw);
            case Stmt.Sync sync -> sync(sync);
        };
    }

    /** A direct load of another process's variable through shared_query. */
    private Step load(final Stmt.Load l) {
        final int reg = registerIndex.get(l.register());
        final MemorySegment part = part(window, layout, l.variable());
        return regs -> regs[reg] = layout.read(part, l.variable());
    }

    /** A direct store into another process's variable through shared_query. */
    private Step store(final Stmt.Store st) {
        final MemorySegment part = part(window, layout, st.variable());
        return regs -> layout.write(part, st.variable(), evaluate(st.value(), regs));
    }

    /** Reads until the value or the bound; the register keeps the last value read. */
    private Step poll(final Stmt.Poll poll) {
        final int reg = registerIndex.get(poll.register());
        final MemorySegment part = part(window, layout, poll.variable());
        return regs -> {
            long value = layout.read(part, poll.variable());
            for (long i = 1; i < poll.bound() && value != poll.value(); i++) {
                Thread.onSpinWait();
                value = layout.read(part, poll.variable());
            }
            regs[reg] = value;
        };
    }

    private Step put(final Stmt.Put put) {
        final MemorySegment origin = layout.slice(own, put.source());
        final int target = layout.owner(put.target());
        final long disp = layout.displacement(put.target());
        return regs -> window.put(origin, target, disp);
    }

    private Step get(final Stmt.Get get) {
        final MemorySegment dest = layout.slice(own, get.dest());
        final int target = layout.owner(get.target());
        final long disp = layout.displacement(get.target());
        return regs -> window.get(dest, target, disp);
    }

    private Step accumulate(final Stmt.Acc acc) {
        final MemorySegment operand = layout.slice(own, acc.operand());
        final int target = layout.owner(acc.target());
        final long disp = layout.displacement(acc.target());
        final Datatype type = layout.datatype(acc.target());
        final Op op = Op.valueOf(acc.op().name());
        return regs -> window.accumulate(operand, 1, type, target, disp, 1, type, op);
    }

    private Step getAccumulate(final Stmt.Rga rga) {
        final MemorySegment operand = layout.slice(own, rga.operand());
        final MemorySegment result = layout.slice(own, rga.dest());
        final int target = layout.owner(rga.target());
        final long disp = layout.displacement(rga.target());
        final Datatype type = layout.datatype(rga.target());
        final Op op = Op.valueOf(rga.op().name());
        return regs -> window.getAccumulate(operand, 1, type, result, 1, type, target, disp, 1, type, op);
    }

    private Step compareAndSwap(final Stmt.Cas cas) {
        final MemorySegment compare = layout.slice(own, cas.compare());
        final MemorySegment swap = layout.slice(own, cas.swap());
        final MemorySegment result = layout.slice(own, cas.dest());
        final int target = layout.owner(cas.target());
        final long disp = layout.displacement(cas.target());
        final Datatype type = layout.datatype(cas.target());
        return regs -> window.compareAndSwap(swap, compare, result, type, target, disp);
    }

    private Step putNotify(final Stmt.PutNotify pn) {
        final MemorySegment origin = layout.slice(own, pn.source());
        final int target = layout.owner(pn.target());
        final long disp = layout.displacement(pn.target());
        return regs -> window.putNotify(origin, target, disp, pn.tag());
    }

    private Step getNotify(final Stmt.GetNotify gn) {
        final MemorySegment dest = layout.slice(own, gn.dest());
        final int target = layout.owner(gn.target());
        final long disp = layout.displacement(gn.target());
        return regs -> window.getNotify(dest, target, disp, gn.tag());
    }

    /** A persistent notifyInit request, created once, started and awaited at each run; its status fills the registers. */
    private Step notifyWait(final Stmt.Wait w) {
        final NotifyRequest request = window.notifyInit(w.source() == Stmt.ANY ? Rma.ANY_SOURCE : w.source(),
            w.tag() == Stmt.ANY ? Rma.ANY_TAG : w.tag(), w.count());
        requests.add(request);
        final int sourceReg = w.sourceRegister() == null ? -1 : registerIndex.get(w.sourceRegister());
        final int tagReg = w.tagRegister() == null ? -1 : registerIndex.get(w.tagRegister());
        return regs -> {
            request.start();
            final NotifyRequest.Status status = request.await();
            if (sourceReg >= 0) {
                regs[sourceReg] = status.source();
            }
            if (tagReg >= 0) {
                regs[tagReg] = status.tag();
            }
        };
    }

    /** post / start / complete / win_wait, and win_test polled until it returns true. */
    private Step pscw(final Stmt.Pscw pscw) {
        final Group group = Group.of(pscw.group().stream().mapToInt(Integer::intValue).toArray());
        return switch (pscw.kind()) {
            case POST -> regs -> window.post(group, 0);
            case START -> regs -> window.start(group, 0);
            case COMPLETE -> regs -> window.complete();
            case WAIT -> regs -> window.await();
            case TEST -> regs -> {
                while (!window.test()) {
                    Thread.onSpinWait();
                }
            };
        };
    }

    private long evaluate(final org.rma4j.litmus.syntax.Expr value, final long[] regs) {
        return value.evaluate(name -> registerIndex.containsKey(name) ? regs[registerIndex.get(name)] : 0,
            Long.MIN_VALUE);
    }

    /** @return the part of the variable's owner: this rank's own, or another's through shared_query. */
    private static MemorySegment part(final Window window, final VariableLayout layout, final String variable) {
        final int owner = layout.owner(variable);
        return owner == window.rank() ? window.segment() : window.sharedQuery(owner).segment();
    }

    private Step sync(final Stmt.Sync sync) {
        final int t = sync.target();
        return switch (sync.kind()) {
            case FLUSH -> regs -> window.flush(t);
            case FLUSH_ALL -> regs -> window.flushAll();
            case FLUSH_LOCAL -> regs -> window.flushLocal(t);
            case FLUSH_LOCAL_ALL -> regs -> window.flushLocalAll();
            case WIN_SYNC -> regs -> window.sync();
            case BARRIER -> regs -> job.barrier();
            case FENCE -> regs -> window.fence(0);
            case LOCK -> {
                final LockType type = sync.exclusive() ? LockType.EXCLUSIVE : LockType.SHARED;
                yield regs -> window.lock(type, t);
            }
            case UNLOCK -> regs -> window.unlock(t);
            case LOCK_ALL -> regs -> window.lockAll();
            case UNLOCK_ALL -> regs -> window.unlockAll();
        };
    }

}
