package org.rma4j.mpi;

/** The levels of thread support of {@code MPI_Init_thread} (MPI-3.1 section 12.4.3), in increasing order. */
public enum MpiThreadLevel {
    /** Only one thread will execute. */
    SINGLE("MPI_THREAD_SINGLE"),
    /** Only the thread that initialized MPI makes MPI calls. */
    FUNNELED("MPI_THREAD_FUNNELED"),
    /** Any thread may call MPI, but never two at once. */
    SERIALIZED("MPI_THREAD_SERIALIZED"),
    /** Any thread may call MPI at any time. */
    MULTIPLE("MPI_THREAD_MULTIPLE");

    private final String cName;

    MpiThreadLevel(final String cName) {
        this.cName = cName;
    }

    /**
     * @return the constant's name in {@code mpi.h}.
     */
    public String cName() {
        return cName;
    }
}
