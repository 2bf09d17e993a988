package org.rma4j;

/**
 * Lock types of {@link Window#lock} (MPI_LOCK_SHARED, MPI_LOCK_EXCLUSIVE; MPI-3.1 section 11.5.3).
 */
public enum LockType {
    /** Several origins may hold the lock on a target at once (MPI_LOCK_SHARED). */
    SHARED,
    /** Only one origin holds the lock on a target (MPI_LOCK_EXCLUSIVE). */
    EXCLUSIVE
}
