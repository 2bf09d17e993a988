package org.rma4j.mpi;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

/**
 * The implementation's predefined handles and constants, resolved once from {@link MpiNative#ABI}, and the
 * translation of the binding's portable constants ({@link Mpi#ANY_SOURCE}, {@link MpiMode}, ...) into the
 * implementation's numbers.
 */
final class Predefined {
    static final long COMM_WORLD = MpiNative.predefined("MPI_COMM_WORLD");
    static final long COMM_SELF = MpiNative.predefined("MPI_COMM_SELF");
    static final long COMM_NULL = MpiNative.predefined("MPI_COMM_NULL");
    static final long GROUP_NULL = MpiNative.predefined("MPI_GROUP_NULL");
    static final long REQUEST_NULL = MpiNative.predefined("MPI_REQUEST_NULL");
    static final long WIN_NULL = MpiNative.predefined("MPI_WIN_NULL");
    static final long INFO_NULL = MpiNative.predefined("MPI_INFO_NULL");
    static final long ERRORS_RETURN = MpiNative.predefined("MPI_ERRORS_RETURN");

    private static final MpiDatatype[] TYPES = types();
    private static final long[] OPS = ops();
    /** Portable assertion bits (0..31) -> the implementation's. */
    private static final int[] ASSERTS = asserts();

    static final int LOCK_EXCLUSIVE = MpiNative.ABI.constant("MPI_LOCK_EXCLUSIVE");
    static final int LOCK_SHARED = MpiNative.ABI.constant("MPI_LOCK_SHARED");
    static final int ANY_SOURCE = MpiNative.ABI.constant("MPI_ANY_SOURCE");
    static final int PROC_NULL = MpiNative.ABI.constant("MPI_PROC_NULL");
    static final int ANY_TAG = MpiNative.ABI.constant("MPI_ANY_TAG");
    static final int UNDEFINED = MpiNative.ABI.constant("MPI_UNDEFINED");
    static final int COMM_TYPE_SHARED = MpiNative.ABI.constant("MPI_COMM_TYPE_SHARED");
    static final int MAX_ERROR_STRING = MpiNative.ABI.constant("MPI_MAX_ERROR_STRING");

    static final MemorySegment STATUS_IGNORE = MemorySegment.ofAddress(MpiNative.ABI.constant("MPI_STATUS_IGNORE"));
    static final MemorySegment IN_PLACE = MemorySegment.ofAddress(MpiNative.ABI.constant("MPI_IN_PLACE"));

    static final long STATUS_SOURCE = statusOffset("MPI_SOURCE");
    static final long STATUS_TAG = statusOffset("MPI_TAG");
    static final long STATUS_ERROR = statusOffset("MPI_ERROR");

    private Predefined() {
    }

    static MpiDatatype type(final MpiBasicType type) {
        return TYPES[type.ordinal()];
    }

    static long op(final MpiOp op) {
        return OPS[op.ordinal()];
    }

    static int lockType(final MpiLockType type) {
        return type == MpiLockType.EXCLUSIVE ? LOCK_EXCLUSIVE : LOCK_SHARED;
    }

    /**
     * @param assertions a combination of {@link MpiMode} bits.
     * @return the implementation's bits, or -1 if {@code assertions} has a bit outside {@link MpiMode#ALL}.
     */
    static int asserts(final int assertions) {
        return (assertions & ~MpiMode.ALL) == 0 ? ASSERTS[assertions] : -1;
    }

    /** @return a rank, {@link Mpi#ANY_SOURCE} or {@link Mpi#PROC_NULL} as the implementation numbers it. */
    static int rank(final int rank) {
        return rank >= 0 ? rank : rank == Mpi.ANY_SOURCE ? ANY_SOURCE : rank == Mpi.PROC_NULL ? PROC_NULL : rank;
    }

    /** @return the binding's number of a rank the implementation returned (e.g. the source of a status). */
    static int portableRank(final int rank) {
        return rank >= 0 ? rank : rank == ANY_SOURCE ? Mpi.ANY_SOURCE : rank == PROC_NULL ? Mpi.PROC_NULL : rank;
    }

    static int tag(final int tag) {
        return tag == Mpi.ANY_TAG ? ANY_TAG : tag;
    }

    static int portableTag(final int tag) {
        return tag == ANY_TAG ? Mpi.ANY_TAG : tag;
    }

    static int color(final int color) {
        return color == Mpi.UNDEFINED ? UNDEFINED : color;
    }

    private static MpiDatatype[] types() {
        final MpiBasicType[] basic = MpiBasicType.values();
        final MpiDatatype[] types = new MpiDatatype[basic.length];
        for (int i = 0; i < basic.length; i++) {
            types[i] = new MpiDatatype(MpiNative.predefined(basic[i].cName()), basic[i].cName(),
                basic[i].extentBytes());
        }
        return types;
    }

    private static long[] ops() {
        final MpiOp[] all = MpiOp.values();
        final long[] ops = new long[all.length];
        for (int i = 0; i < all.length; i++) {
            ops[i] = MpiNative.predefined(all[i].cName());
        }
        return ops;
    }

    private static int[] asserts() {
        final int[] table = new int[MpiMode.ALL + 1];
        for (int mask = 0; mask <= MpiMode.ALL; mask++) {
            int bits = 0;
            for (int bit = 0; bit < MpiMode.C_NAMES.length; bit++) {
                if ((mask & (1 << bit)) != 0) {
                    bits |= MpiNative.ABI.constant(MpiMode.C_NAMES[bit]);
                }
            }
            table[mask] = bits;
        }
        return table;
    }

    private static long statusOffset(final String field) {
        return MpiNative.ABI.statusLayout().byteOffset(MemoryLayout.PathElement.groupElement(field));
    }
}
