package org.rma4j.litmus.run;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.rma4j.Datatype;
import org.rma4j.LockType;
import org.rma4j.NotifyRequest;
import org.rma4j.Op;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.litmus.syntax.Program;
import org.rma4j.litmus.syntax.Stmt;

/**
 * Runs the statements of one process of a litmus program on an rma4j window: local reads and
 * writes are volatile loads and stores of the rank's own part (so the JIT keeps them in program
 * order, as rule LO assumes), remote statements are the window's put / get / getAccumulate /
 * compareAndSwap / putNotify with the origin and result buffers inside the rank's own part (the
 * coreRMA statements read and write local memory locations), synchronizations are the window's
 * and the job's calls. Statements are compiled once into steps.
 */
final class Interpreter {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    /** One compiled statement. */
    @FunctionalInterface
    private interface Step {
        void run(long[] registers);
    }

    private final List<Step> steps = new ArrayList<>();
    private final List<NotifyRequest> requests = new ArrayList<>();
    private final Map<String, Integer> registerIndex = new HashMap<>();

    Interpreter(final Program program, final int rank, final RmaJob job, final Window window, final VariableLayout layout) {
        final List<String> registers = program.registersOf(rank);
        for (int i = 0; i < registers.size(); i++) {
            registerIndex.put(registers.get(i), i);
        }
        final MemorySegment own = window.segment();
        for (final Stmt s : program.processes().get(rank)) {
            steps.add(compile(s, job, window, own, layout));
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

    private Step compile(final Stmt s, final RmaJob job, final Window window, final MemorySegment own,
        final VariableLayout layout) {
        return switch (s) {
            case Stmt.LocalRead r -> {
                final int reg = registerIndex.get(r.register());
                final long offset = layout.offset(r.variable());
                yield regs -> regs[reg] = (long)LONG.getVolatile(own, offset);
            }
            case Stmt.LocalWrite w -> {
                final long offset = layout.offset(w.variable());
                yield regs -> LONG.setVolatile(own, offset, w.value().evaluate(
                    name -> registerIndex.containsKey(name) ? regs[registerIndex.get(name)] : 0, Long.MIN_VALUE));
            }
            case Stmt.Put put -> {
                final MemorySegment origin = slot(own, layout, put.source());
                final int target = layout.owner(put.target());
                final int disp = layout.displacement(put.target());
                yield regs -> window.put(origin, target, disp);
            }
            case Stmt.Get get -> {
                final MemorySegment dest = slot(own, layout, get.dest());
                final int target = layout.owner(get.target());
                final int disp = layout.displacement(get.target());
                yield regs -> window.get(dest, target, disp);
            }
            case Stmt.Rga rga -> {
                final MemorySegment operand = slot(own, layout, rga.operand());
                final MemorySegment result = slot(own, layout, rga.dest());
                final int target = layout.owner(rga.target());
                final int disp = layout.displacement(rga.target());
                final Op op = Op.valueOf(rga.op().name());
                yield regs -> window.getAccumulate(operand, 1, Datatype.LONG, result, 1, Datatype.LONG, target, disp, 1,
                    Datatype.LONG, op);
            }
            case Stmt.Cas cas -> {
                final MemorySegment compare = slot(own, layout, cas.compare());
                final MemorySegment swap = slot(own, layout, cas.swap());
                final MemorySegment result = slot(own, layout, cas.dest());
                final int target = layout.owner(cas.target());
                final int disp = layout.displacement(cas.target());
                yield regs -> window.compareAndSwap(swap, compare, result, Datatype.LONG, target, disp);
            }
            case Stmt.PutNotify pn -> {
                final MemorySegment origin = slot(own, layout, pn.source());
                final int target = layout.owner(pn.target());
                final int disp = layout.displacement(pn.target());
                yield regs -> window.putNotify(origin, target, disp, pn.tag());
            }
            case Stmt.Wait w -> {
                final NotifyRequest request = window.notifyInit(w.source(), w.tag(), w.count());
                requests.add(request);
                yield regs -> {
                    request.start();
                    request.await();
                };
            }
            case Stmt.Sync sync -> sync(sync, job, window);
        };
    }

    private static Step sync(final Stmt.Sync sync, final RmaJob job, final Window window) {
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

    private static MemorySegment slot(final MemorySegment own, final VariableLayout layout, final String variable) {
        return own.asSlice(layout.offset(variable), Long.BYTES);
    }
}
