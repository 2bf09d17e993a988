package org.rma4j.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A group of processes ({@code MPI_Group}, MPI-3.1 section 6.3): from {@link MpiComm#group()},
 * {@link MpiWin#group()} or {@link #incl}. Free it with {@link #free()}. Not thread-safe.
 */
public final class MpiGroup {
    private long handle;

    MpiGroup(final long handle) {
        this.handle = handle;
    }

    /**
     * @return the implementation's handle ({@code MPI_GROUP_NULL} once freed).
     */
    public long handle() {
        return handle;
    }

    /**
     * {@code MPI_Group_size}.
     */
    public int size() {
        final Scratch scratch = Scratch.get();
        try {
            check((int)MpiNative.GROUP_SIZE.invokeExact(handle, scratch.int0), "MPI_Group_size", "");
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return scratch.int0();
    }

    /**
     * {@code MPI_Group_rank}.
     *
     * @return this process's rank in the group, or {@link Mpi#UNDEFINED}.
     */
    public int rank() {
        final Scratch scratch = Scratch.get();
        try {
            check((int)MpiNative.GROUP_RANK.invokeExact(handle, scratch.int0), "MPI_Group_rank", "");
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return scratch.int0() == Predefined.UNDEFINED ? Mpi.UNDEFINED : scratch.int0();
    }

    /**
     * {@code MPI_Group_incl}: the group of the given members, in that order.
     */
    public MpiGroup incl(final int... ranks) {
        final Scratch scratch = Scratch.get();
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment members = arena.allocateFrom(ValueLayout.JAVA_INT, ranks);
            check((int)MpiNative.GROUP_INCL.invokeExact(handle, ranks.length, members, scratch.handle0),
                "MPI_Group_incl", "ranks=" + java.util.Arrays.toString(ranks));
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return new MpiGroup(scratch.handle0());
    }

    /**
     * {@code MPI_Group_translate_ranks}.
     *
     * @return the rank in {@code other} of each of {@code ranks} of this group ({@link Mpi#UNDEFINED} for a
     *         process not in {@code other}).
     */
    public int[] translateRanks(final int[] ranks, final MpiGroup other) {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment in = arena.allocateFrom(ValueLayout.JAVA_INT, ranks);
            final MemorySegment out = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, ranks.length));
            check((int)MpiNative.GROUP_TRANSLATE_RANKS.invokeExact(handle, ranks.length, in, other.handle, out),
                "MPI_Group_translate_ranks", "ranks=" + java.util.Arrays.toString(ranks));
            final int[] translated = new int[ranks.length];
            for (int i = 0; i < ranks.length; i++) {
                final int rank = out.getAtIndex(ValueLayout.JAVA_INT, i);
                translated[i] = rank == Predefined.UNDEFINED ? Mpi.UNDEFINED : Predefined.portableRank(rank);
            }
            return translated;
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code MPI_Group_free}.
     */
    public void free() {
        final Scratch scratch = Scratch.get();
        scratch.handle0(handle);
        try {
            check((int)MpiNative.GROUP_FREE.invokeExact(scratch.handle0), "MPI_Group_free", "");
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        handle = scratch.handle0();
    }

    private static void check(final int rc, final String call, final String details) {
        if (rc != 0) {
            throw Errors.of(rc, call, details);
        }
    }
}
