package org.rma4j.mpi;

import java.lang.foreign.Arena;
import java.util.Map;

/** {@code MPI_Info} objects for the calls that take one (MPI-3.1 section 9): made per call and freed after it. */
final class MpiInfo {
    private MpiInfo() {
    }

    /**
     * @return {@code MPI_INFO_NULL} for no keys, else a new info object holding them.
     */
    static long create(final Map<String, String> keys) {
        if (keys.isEmpty()) {
            return Predefined.INFO_NULL;
        }
        final Scratch scratch = Scratch.get();
        try (Arena arena = Arena.ofConfined()) {
            Mpi.check((int)MpiNative.INFO_CREATE.invokeExact(scratch.handle0), "MPI_Info_create");
            final long info = scratch.handle0();
            for (final Map.Entry<String, String> key : keys.entrySet()) {
                final int rc = (int)MpiNative.INFO_SET.invokeExact(info, arena.allocateFrom(key.getKey()),
                    arena.allocateFrom(key.getValue()));
                if (rc != 0) {
                    free(info);
                    throw Errors.of(rc, "MPI_Info_set", "key=" + key.getKey() + " value=" + key.getValue());
                }
            }
            return info;
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** Frees an info object of {@link #create} ({@code MPI_INFO_NULL}: nothing). */
    static void free(final long info) {
        if (info == Predefined.INFO_NULL) {
            return;
        }
        final Scratch scratch = Scratch.get();
        scratch.handle0(info);
        try {
            Mpi.check((int)MpiNative.INFO_FREE.invokeExact(scratch.handle0), "MPI_Info_free");
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}
