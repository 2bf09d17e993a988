package org.rma4j;

/**
 * MPI error classes raised by rma4j, with the standard's names (MPI-3.1 section 11.6.2, Table
 * 11.2, plus the general classes the one-sided calls use, such as {@code MPI_ERR_RANK}).
 */
public enum ErrorClass {
    /** Invalid argument of another kind. */
    ARG("MPI_ERR_ARG", "invalid argument", 1),
    /** Invalid count argument. */
    COUNT("MPI_ERR_COUNT", "invalid count argument", 2),
    /** Invalid datatype argument. */
    TYPE("MPI_ERR_TYPE", "invalid datatype argument", 3),
    /** Invalid operation for the datatype. */
    OP("MPI_ERR_OP", "invalid reduction operation", 4),
    /** Invalid tag. */
    TAG("MPI_ERR_TAG", "invalid tag argument", 5),
    /** Invalid rank. */
    RANK("MPI_ERR_RANK", "invalid rank", 6),
    /** Invalid group argument. */
    GROUP("MPI_ERR_GROUP", "invalid group", 7),
    /** Invalid info key. */
    INFO_KEY("MPI_ERR_INFO_KEY", "invalid info key", 8),
    /** Invalid info value. */
    INFO_VALUE("MPI_ERR_INFO_VALUE", "invalid info value", 9),
    /** Invalid win argument (for example a freed window). */
    WIN("MPI_ERR_WIN", "invalid win argument", 10),
    /** Invalid base argument. */
    BASE("MPI_ERR_BASE", "invalid base argument", 11),
    /** Invalid size argument. */
    SIZE("MPI_ERR_SIZE", "invalid size argument", 12),
    /** Invalid disp argument. */
    DISP("MPI_ERR_DISP", "invalid disp argument", 13),
    /** Invalid locktype argument. */
    LOCKTYPE("MPI_ERR_LOCKTYPE", "invalid locktype argument", 14),
    /** Invalid assert argument. */
    ASSERT("MPI_ERR_ASSERT", "invalid assert argument", 15),
    /** Conflicting accesses to a window. */
    RMA_CONFLICT("MPI_ERR_RMA_CONFLICT", "conflicting accesses to window", 16),
    /** Invalid synchronization of RMA calls. */
    RMA_SYNC("MPI_ERR_RMA_SYNC", "invalid synchronization of RMA calls", 17),
    /** Target memory is not part of the window (or, for dynamic windows, not attached). */
    RMA_RANGE("MPI_ERR_RMA_RANGE", "target memory is not part of the window", 18),
    /** Memory cannot be attached. */
    RMA_ATTACH("MPI_ERR_RMA_ATTACH", "memory cannot be attached", 19),
    /** Memory cannot be shared. */
    RMA_SHARED("MPI_ERR_RMA_SHARED", "memory cannot be shared", 20),
    /** The window has the wrong flavor for the called function. */
    RMA_FLAVOR("MPI_ERR_RMA_FLAVOR", "passed window has the wrong flavor for the called function", 21),
    /** Invalid request (freed, or of the wrong kind). */
    REQUEST("MPI_ERR_REQUEST", "invalid request", 22),
    /**
     * Memory or another bounded resource is exhausted (MPI_ERR_NO_MEM): the job's shared-memory file system
     * has too little free space for an allocation ({@code allocMem}) or a window, or a per-process limit
     * (mappings, datatype blocks) would be exceeded; nothing was allocated or changed.
     */
    NO_MEM("MPI_ERR_NO_MEM", "memory exhausted", 23),
    /**
     * A rank the call depends on has failed (the process-failure class of MPI's fault-tolerance
     * proposal, ULFM): thrown as {@link RankFailedException}.
     */
    PROC_FAILED("MPI_ERR_PROC_FAILED", "a process involved in the operation has failed", 24),
    /** Invalid communicator (a freed one, or MPI_COMM_WORLD where it cannot be used). */
    COMM("MPI_ERR_COMM", "invalid communicator", 40),
    /** Invalid root of a rooted collective. */
    ROOT("MPI_ERR_ROOT", "invalid root", 41),
    /** Invalid topology, or a topology call on a communicator without one. */
    TOPOLOGY("MPI_ERR_TOPOLOGY", "invalid topology", 42),
    /** Invalid dimension argument of a topology call. */
    DIMS("MPI_ERR_DIMS", "invalid dimension argument", 43),
    /**
     * A notification counter index outside the counters attached at the rank it names (an extension class, not
     * in MPI-3.1: {@code MPI_ERR_RMA_NOTIF_RANGE} of the notified RMA extension of Bull's Open MPI 5, which
     * implements MPI Forum issue 59, "RMA Notification"; see {@link Window#notifyAttach}).
     */
    RMA_NOTIF_RANGE("MPI_ERR_RMA_NOTIF_RANGE", "notification counter index out of range", 44),
    /** The job or an operation on it failed in a way no other class describes. */
    OTHER("MPI_ERR_OTHER", "known error not in this list", 25),
    /** Invalid attribute key: freed, predefined where a user key is needed (MPI-3.1 section 6.7). */
    KEYVAL("MPI_ERR_KEYVAL", "invalid keyval has been passed", 26);

    private final String mpiName;
    private final String description;
    /**
     * The class's code in shared memory (collective statuses): explicit, never an ordinal, so reordering
     * or adding constants does not change what ranks read from each other. 0 means no error.
     */
    private final int code;

    ErrorClass(final String mpiName, final String description, final int code) {
        this.mpiName = mpiName;
        this.description = description;
        this.code = code;
    }

    /**
     * @return the class's code in shared memory, >= 1 (0 stands for no error).
     */
    int code() {
        return code;
    }

    /**
     * @return the class with {@code code}, or {@link #OTHER} for a code no class has.
     */
    static ErrorClass ofCode(final int code) {
        for (final ErrorClass errorClass : values()) {
            if (errorClass.code == code) {
                return errorClass;
            }
        }
        return OTHER;
    }

    /**
     * @return the standard's constant name, e.g. {@code MPI_ERR_RMA_SYNC}.
     */
    public String mpiName() {
        return mpiName;
    }

    /**
     * @return the standard's one-line description.
     */
    public String description() {
        return description;
    }
}
