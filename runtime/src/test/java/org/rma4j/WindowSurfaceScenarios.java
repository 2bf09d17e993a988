package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rma4j.AccumulateScenarios.expect;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The programs of the window-surface contract tests ({@link WindowSurfaceContractTest}): MPI_WIN_SET_INFO
 * and GET_INFO, window names, attribute caching with its callbacks and their order, and window error
 * handlers (MPI-3.1 sections 6.7.3, 6.8, 8.3.3, 11.2.6, 11.2.7, 11.6.1). Each runs at every rank.
 */
final class WindowSurfaceScenarios {
    /** The rank that makes the fatal error in {@link #fatalError}. */
    static final int FATAL_RANK = 1;

    private WindowSurfaceScenarios() {
    }

    /**
     * setInfo changes no_locks (lock calls raise RMA_SYNC while it is true), accumulate_ordering,
     * accumulate_ops and unknown keys, ignores the hints fixed at creation, keeps the keys it does not name,
     * refuses a malformed value without changing anything; names default to "" and are truncated as in MPI.
     */
    static void infoAndName(final RmaJob job) {
        final int right = (job.rank() + 1) % job.size();
        final Info created = Info.of(Info.ACCUMULATE_ORDERING, "rar").set("my_hint", "a");
        try (Window window = Scenarios.allocate(job, 64, 8, created)) {
            assertEquals("rar", window.getInfo().get(Info.ACCUMULATE_ORDERING).orElseThrow());
            assertEquals("a", window.getInfo().get("my_hint").orElseThrow());
            final String capacity = window.getInfo().get(RmaJob.NOTIFY_CAPACITY_INFO_KEY).orElseThrow();
            assertEquals(Integer.toString(WindowCreation.notifyCapacityDefault(job.size())), capacity,
                "the default lane capacity for the window's ranks");
            window.setInfo(Info.of(Info.NO_LOCKS, "true").set(Info.ACCUMULATE_ORDERING, "none")
                .set(Info.ALLOC_SHARED_NONCONTIG, "true").set(Info.SAME_SIZE, "true")
                .set(RmaJob.NOTIFY_CAPACITY_INFO_KEY, "4").set("other_hint", "b"));
            final Info changed = window.getInfo();
            assertEquals("true", changed.get(Info.NO_LOCKS).orElseThrow());
            assertEquals("none", changed.get(Info.ACCUMULATE_ORDERING).orElseThrow());
            assertEquals("false", changed.get(Info.ALLOC_SHARED_NONCONTIG).orElseThrow(), "fixed at creation");
            assertEquals("false", changed.get(Info.SAME_SIZE).orElseThrow(), "fixed at creation");
            assertEquals(capacity, changed.get(RmaJob.NOTIFY_CAPACITY_INFO_KEY).orElseThrow(), "fixed at creation");
            assertEquals("a", changed.get("my_hint").orElseThrow(), "a key setInfo does not name keeps its value");
            assertEquals("b", changed.get("other_hint").orElseThrow());
            expect(ErrorClass.RMA_SYNC, () -> window.lock(LockType.SHARED, right), "no_locks=true");
            expect(ErrorClass.RMA_SYNC, window::lockAll, "no_locks=true");
            expect(ErrorClass.INFO_VALUE,
                () -> window.setInfo(Info.of(Info.ACCUMULATE_OPS, "any_op").set(Info.NO_LOCKS, "false")),
                "accumulate_ops=any_op");
            assertEquals(changed.keys(), window.getInfo().keys(), "a refused setInfo changes nothing");
            assertEquals("true", window.getInfo().get(Info.NO_LOCKS).orElseThrow());
            window.setInfo(null);
            window.setInfo(Info.of(Info.NO_LOCKS, "false"));
            window.lock(LockType.SHARED, right);
            window.unlock(right);
            assertEquals("", window.getName(), "MPI_WIN_GET_NAME of an unnamed window");
            window.setName("halo " + job.rank());
            assertEquals("halo " + job.rank(), window.getName());
            window.setName("x".repeat(Window.MAX_OBJECT_NAME + 10));
            assertEquals(Window.MAX_OBJECT_NAME - 1, window.getName().length());
            expect(ErrorClass.ARG, () -> window.setName(null), "setName name is null");
            job.barrier();
            window.free();
            expect(ErrorClass.WIN, () -> window.setName("late"), "on a freed window");
            expect(ErrorClass.WIN, () -> window.setInfo(Info.create()), "on a freed window");
        }
    }

    /**
     * Attributes: set, get, replace, delete, the predefined keys, freed keys; delete callbacks at
     * deleteAttr, at a replacing setAttr and at free in the reverse order of setting; the copy callback never
     * called; a throwing delete callback fails deleteAttr (the value stays) and, at free, fails the free after
     * the window is freed at every rank.
     */
    static void attributeCaching(final RmaJob job) {
        final List<String> deleted = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger copies = new AtomicInteger();
        final Keyval.CopyFunction<String> copy = (window, keyval, extra, value) -> {
            copies.incrementAndGet();
            return Optional.of(value);
        };
        final Keyval.DeleteFunction<String> record = (window, keyval, value, extra) -> deleted
            .add(extra + "=" + value + (window.getName().isEmpty() ? "" : "@" + window.getName()));
        final Keyval<String> a = Window.createKeyval(copy, record, "A");
        final Keyval<String> b = Window.createKeyval(copy, record, "B");
        final Keyval<String> c = Window.createKeyval(Keyval.nullCopyFn(), record, "C");
        final Keyval<Integer> plain = Window.createKeyval(Keyval.dupFn(), Keyval.nullDeleteFn(), null);
        final Window window = job.allocate(32, 4);
        window.setName("w");
        assertEquals(Optional.empty(), window.getAttr(a), "nothing set yet (flag = false)");
        window.setAttr(a, "1");
        window.setAttr(b, "2");
        window.setAttr(c, "3");
        window.setAttr(plain, job.rank());
        assertEquals(Optional.of("1"), window.getAttr(a));
        assertEquals(Optional.of(job.rank()), window.getAttr(plain), "attributes are this rank's own");
        window.setAttr(a, "10");
        assertEquals(List.of("A=1@w"), deleted, "replacing a value deletes the old one first");
        window.deleteAttr(b);
        window.deleteAttr(b);
        assertEquals(List.of("A=1@w", "B=2@w"), deleted, "a second delete of a key not set does nothing");
        assertEquals(Optional.empty(), window.getAttr(b));
        window.setAttr(b, "20");
        Window.freeKeyval(c);
        assertTrue(c.isFreed());
        expect(ErrorClass.KEYVAL, () -> window.getAttr(c), "which was freed");
        expect(ErrorClass.KEYVAL, () -> window.setAttr(c, "4"), "which was freed");
        expect(ErrorClass.KEYVAL, () -> window.setAttr(null, "4"), "keyval is null");
        expect(ErrorClass.ARG, () -> window.setAttr(a, null), "value for");

        assertSame(window.segment(), window.getAttr(Keyval.WIN_BASE).orElseThrow());
        assertEquals(32L, window.getAttr(Keyval.WIN_SIZE).orElseThrow());
        assertEquals(4, window.getAttr(Keyval.WIN_DISP_UNIT).orElseThrow());
        assertEquals(WindowFlavor.ALLOCATE, window.getAttr(Keyval.WIN_CREATE_FLAVOR).orElseThrow());
        assertEquals(MemoryModel.UNIFIED, window.getAttr(Keyval.WIN_MODEL).orElseThrow());
        expect(ErrorClass.KEYVAL, () -> window.setAttr(Keyval.WIN_SIZE, 1L), "predefined MPI_WIN_SIZE");
        expect(ErrorClass.KEYVAL, () -> window.deleteAttr(Keyval.WIN_BASE), "predefined MPI_WIN_BASE");
        assertThrows(RmaException.class, () -> Window.freeKeyval(Keyval.WIN_MODEL));

        final Keyval<String> failing = Window.createKeyval(Keyval.nullCopyFn(), (w, k, value, extra) -> {
            deleted.add("F=" + value);
            throw new IllegalStateException("cannot release " + value);
        }, null);
        window.setAttr(failing, "x");
        expect(ErrorClass.OTHER, () -> window.deleteAttr(failing), "delete callback", "cannot release x");
        assertEquals(Optional.of("x"), window.getAttr(failing), "a failed deleteAttr keeps the value");
        deleted.clear();
        job.barrier();
        // Set order now: c=3 (its key freed), a=10, plain, b=20, failing=x. Free deletes in reverse.
        final RmaException freeFailure = assertThrows(RmaException.class, window::free);
        assertTrue(freeFailure.getMessage().contains("the window is freed, but an attribute's delete callback"),
            freeFailure.getMessage());
        assertTrue(window.isFreed());
        assertEquals(List.of("F=x", "B=20@w", "A=10@w", "C=3@w"), deleted, "delete callbacks at free");
        assertEquals(0, copies.get(), "no window is ever copied");

        try (Window dynamic = job.createDynamic(null)) {
            assertEquals(MemorySegment.NULL, dynamic.getAttr(Keyval.WIN_BASE).orElseThrow(), "MPI_BOTTOM");
            assertEquals(0L, dynamic.getAttr(Keyval.WIN_SIZE).orElseThrow());
            assertEquals(WindowFlavor.DYNAMIC, dynamic.getAttr(Keyval.WIN_CREATE_FLAVOR).orElseThrow());
        }
    }

    /**
     * Error handlers: ERRORS_RETURN by default (the call throws); a user handler receives the window and the
     * exception once (also through an overload that calls another window call), then the call throws it; a
     * handler that throws replaces the exception; every rank's handler is its own.
     */
    static void errorHandlers(final RmaJob job) {
        final int right = (job.rank() + 1) % job.size();
        try (Window window = job.allocate(64, 8)) {
            assertSame(Errhandler.ERRORS_RETURN, window.getErrhandler());
            final List<String> handled = new ArrayList<>();
            final Errhandler recording = Window
                .createErrhandler((w, error) -> handled.add((w == window) + " " + error.errorClass().mpiName()));
            window.setErrhandler(recording);
            assertSame(recording, window.getErrhandler());
            final RmaException outside = assertThrows(RmaException.class,
                () -> window.put(new long[] {1}, 0, 1, right, 0));
            assertEquals(ErrorClass.RMA_SYNC, outside.errorClass());
            assertEquals(List.of("true MPI_ERR_RMA_SYNC"), handled);
            window.lockAll();
            final RmaException count = assertThrows(RmaException.class, () -> window.put(new long[2], 1, 5, right, 0));
            assertEquals(ErrorClass.COUNT, count.errorClass());
            assertThrows(RmaException.class, () -> window.put(new long[1], 0, 1, right, 8));
            assertEquals(List.of("true MPI_ERR_RMA_SYNC", "true MPI_ERR_COUNT", "true MPI_ERR_RMA_RANGE"), handled,
                "one call per error");
            window.setErrhandler(Window.createErrhandler((w, error) -> {
                throw new IllegalStateException("replaced " + error.errorClass().mpiName());
            }));
            final IllegalStateException replaced = assertThrows(IllegalStateException.class,
                () -> window.get(new long[1], 0, 1, right, 8));
            assertEquals("replaced MPI_ERR_RMA_RANGE", replaced.getMessage());
            window.setErrhandler(Errhandler.ERRORS_RETURN);
            expect(ErrorClass.RMA_RANGE, () -> window.get(new long[1], 0, 1, right, 8));
            expect(ErrorClass.ARG, () -> window.setErrhandler(null), "handler is null");
            window.unlockAll();
            job.barrier();
        }
    }

    /**
     * Rank {@link #FATAL_RANK} sets MPI_ERRORS_ARE_FATAL and puts outside an epoch: the job is aborted with
     * the error class's code (MPI_ERR_RMA_SYNC: 17), the rank having named the class and the call. The other
     * ranks wait in a barrier, which the abort ends.
     */
    static void fatalError(final RmaJob job) {
        try (Window window = job.allocate(64, 8)) {
            if (job.rank() == FATAL_RANK) {
                window.setErrhandler(Errhandler.ERRORS_ARE_FATAL);
                window.put(new long[] {1}, 0, 1, 0, 0);
            }
            job.barrier();
        }
    }
}
