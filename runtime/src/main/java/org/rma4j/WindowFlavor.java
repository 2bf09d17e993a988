package org.rma4j;

/**
 * How a window was created (the MPI_WIN_CREATE_FLAVOR attribute, MPI-3.1 section 11.2.6).
 */
public enum WindowFlavor {
    /** MPI_WIN_FLAVOR_CREATE: over memory the caller provided. */
    CREATE(1),
    /** MPI_WIN_FLAVOR_ALLOCATE: memory allocated by the window. */
    ALLOCATE(2),
    /** MPI_WIN_FLAVOR_DYNAMIC: memory attached and detached after creation. */
    DYNAMIC(3),
    /** MPI_WIN_FLAVOR_SHARED: allocated memory every rank may load from and store to directly. */
    SHARED(4);

    /** The flavor's code in the window file's header: explicit, never the ordinal. */
    private final int code;

    WindowFlavor(final int code) {
        this.code = code;
    }

    /**
     * @return the flavor's code in the window file's header.
     */
    int code() {
        return code;
    }
}
