package org.rma4j.mpi;

/**
 * Assertion bits of the synchronization calls (MPI-3.1 section 11.5.5), as the binding numbers them.
 * Implementations number them differently (Open MPI {@code MPI_MODE_NOCHECK} = 1, MPICH 1024); the
 * binding translates a combination of these bits into the implementation's ({@link MpiAbi#constants()}).
 */
public final class MpiMode {
    /** {@code MPI_MODE_NOCHECK}. */
    public static final int NOCHECK = 1;
    /** {@code MPI_MODE_NOSTORE}. */
    public static final int NOSTORE = 2;
    /** {@code MPI_MODE_NOPUT}. */
    public static final int NOPUT = 4;
    /** {@code MPI_MODE_NOPRECEDE}. */
    public static final int NOPRECEDE = 8;
    /** {@code MPI_MODE_NOSUCCEED}. */
    public static final int NOSUCCEED = 16;

    /** Every bit above. */
    public static final int ALL = NOCHECK | NOSTORE | NOPUT | NOPRECEDE | NOSUCCEED;

    /** The C names of the bits, bit i at index i. */
    static final String[] C_NAMES = {"MPI_MODE_NOCHECK", "MPI_MODE_NOSTORE", "MPI_MODE_NOPUT", "MPI_MODE_NOPRECEDE",
        "MPI_MODE_NOSUCCEED"};

    private MpiMode() {
    }
}
