package org.rma4j.mpi;

/** The lock types of {@code MPI_Win_lock} (MPI-3.1 section 11.5.3). */
public enum MpiLockType {
    /** {@code MPI_LOCK_EXCLUSIVE}: no other lock on the target at the same time. */
    EXCLUSIVE("MPI_LOCK_EXCLUSIVE"),
    /** {@code MPI_LOCK_SHARED}: other shared locks may be held on the target at the same time. */
    SHARED("MPI_LOCK_SHARED");

    private final String cName;

    MpiLockType(final String cName) {
        this.cName = cName;
    }

    /**
     * @return the constant's name in {@code mpi.h}.
     */
    public String cName() {
        return cName;
    }
}
