package org.rma4j.mpi;

/** The synchronization calls of {@link MpiWin} (MPI-3.1 section 11.5). */
final class MpiWinSync {
    private MpiWinSync() {
    }

    static void lock(final long win, final MpiLockType lockType, final int rank, final int assertions) {
        final int nativeAssert = asserts(assertions, "MPI_Win_lock");
        final int rc;
        try {
            rc = (int)MpiNative.WIN_LOCK.invokeExact(Predefined.lockType(lockType), Predefined.rank(rank), nativeAssert,
                win);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_lock", "lock_type=" + lockType + " rank=" + rank + " assert=" + assertions);
        }
    }

    static void unlock(final long win, final int rank) {
        final int rc;
        try {
            rc = (int)MpiNative.WIN_UNLOCK.invokeExact(Predefined.rank(rank), win);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_unlock", "rank=" + rank);
        }
    }

    static void lockAll(final long win, final int assertions) {
        final int nativeAssert = asserts(assertions, "MPI_Win_lock_all");
        final int rc;
        try {
            rc = (int)MpiNative.WIN_LOCK_ALL.invokeExact(nativeAssert, win);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_lock_all", "assert=" + assertions);
        }
    }

    static void unlockAll(final long win) {
        call(MpiNative.WIN_UNLOCK_ALL, win, "MPI_Win_unlock_all");
    }

    static void flush(final long win, final int rank) {
        final int rc;
        try {
            rc = (int)MpiNative.WIN_FLUSH.invokeExact(Predefined.rank(rank), win);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_flush", "rank=" + rank);
        }
    }

    static void flushAll(final long win) {
        call(MpiNative.WIN_FLUSH_ALL, win, "MPI_Win_flush_all");
    }

    static void flushLocal(final long win, final int rank) {
        final int rc;
        try {
            rc = (int)MpiNative.WIN_FLUSH_LOCAL.invokeExact(Predefined.rank(rank), win);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_flush_local", "rank=" + rank);
        }
    }

    static void flushLocalAll(final long win) {
        call(MpiNative.WIN_FLUSH_LOCAL_ALL, win, "MPI_Win_flush_local_all");
    }

    static void sync(final long win) {
        call(MpiNative.WIN_SYNC, win, "MPI_Win_sync");
    }

    static void fence(final long win, final int assertions) {
        final int nativeAssert = asserts(assertions, "MPI_Win_fence");
        final int rc;
        try {
            rc = (int)MpiNative.WIN_FENCE.invokeExact(nativeAssert, win);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_fence", "assert=" + assertions);
        }
    }

    static void post(final long win, final MpiGroup group, final int assertions) {
        final int nativeAssert = asserts(assertions, "MPI_Win_post");
        final int rc;
        try {
            rc = (int)MpiNative.WIN_POST.invokeExact(group.handle(), nativeAssert, win);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_post", "assert=" + assertions);
        }
    }

    static void start(final long win, final MpiGroup group, final int assertions) {
        final int nativeAssert = asserts(assertions, "MPI_Win_start");
        final int rc;
        try {
            rc = (int)MpiNative.WIN_START.invokeExact(group.handle(), nativeAssert, win);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_start", "assert=" + assertions);
        }
    }

    static void complete(final long win) {
        call(MpiNative.WIN_COMPLETE, win, "MPI_Win_complete");
    }

    static void await(final long win) {
        call(MpiNative.WIN_WAIT, win, "MPI_Win_wait");
    }

    static boolean test(final long win) {
        final Scratch scratch = Scratch.get();
        final int rc;
        try {
            rc = (int)MpiNative.WIN_TEST.invokeExact(win, scratch.int0);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_test", "");
        }
        return scratch.int0() != 0;
    }

    private static void call(final java.lang.invoke.MethodHandle function, final long win, final String name) {
        final int rc;
        try {
            rc = (int)function.invokeExact(win);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, name, "");
        }
    }

    private static int asserts(final int assertions, final String call) {
        final int nativeAssert = Predefined.asserts(assertions);
        if (nativeAssert < 0) {
            throw Errors.binding(MpiErrorClass.ASSERT, call,
                "assert=" + assertions + " has bits outside MpiMode.ALL (" + MpiMode.ALL + ")");
        }
        return nativeAssert;
    }
}
