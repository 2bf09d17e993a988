package org.rma4j.mpi;

/**
 * The MPI error classes (MPI-3.1 section 8.4, Table 8.1), independent of an implementation's numbering:
 * {@link MpiAbi#constants()} maps each class's C name to the number its {@code mpi.h} gives it, and
 * {@link #of} maps a number back. A class an implementation does not define (MPICH's
 * {@code MPI_ERR_PROC_ABORTED}, {@code MPIX_ERR_PROC_FAILED}) is never returned for the other one.
 */
public enum MpiErrorClass {
    SUCCESS("MPI_SUCCESS"), BUFFER("MPI_ERR_BUFFER"), COUNT("MPI_ERR_COUNT"), TYPE("MPI_ERR_TYPE"), TAG(
        "MPI_ERR_TAG"), COMM("MPI_ERR_COMM"), RANK("MPI_ERR_RANK"), REQUEST("MPI_ERR_REQUEST"), ROOT(
            "MPI_ERR_ROOT"), GROUP("MPI_ERR_GROUP"), OP("MPI_ERR_OP"), TOPOLOGY("MPI_ERR_TOPOLOGY"), DIMS(
                "MPI_ERR_DIMS"), ARG("MPI_ERR_ARG"), UNKNOWN("MPI_ERR_UNKNOWN"), TRUNCATE("MPI_ERR_TRUNCATE"), OTHER(
                    "MPI_ERR_OTHER"), INTERN("MPI_ERR_INTERN"), IN_STATUS("MPI_ERR_IN_STATUS"), PENDING(
                        "MPI_ERR_PENDING"), INFO("MPI_ERR_INFO"), INFO_KEY("MPI_ERR_INFO_KEY"), INFO_VALUE(
                            "MPI_ERR_INFO_VALUE"), INFO_NOKEY("MPI_ERR_INFO_NOKEY"), NAME("MPI_ERR_NAME"), NO_MEM(
                                "MPI_ERR_NO_MEM"), NOT_SAME(
                                    "MPI_ERR_NOT_SAME"), UNSUPPORTED_OPERATION("MPI_ERR_UNSUPPORTED_OPERATION"), KEYVAL(
                                        "MPI_ERR_KEYVAL"), WIN("MPI_ERR_WIN"), BASE("MPI_ERR_BASE"), LOCKTYPE(
                                            "MPI_ERR_LOCKTYPE"), RMA_CONFLICT("MPI_ERR_RMA_CONFLICT"), RMA_SYNC(
                                                "MPI_ERR_RMA_SYNC"), SIZE("MPI_ERR_SIZE"), DISP("MPI_ERR_DISP"), ASSERT(
                                                    "MPI_ERR_ASSERT"), RMA_RANGE("MPI_ERR_RMA_RANGE"), RMA_ATTACH(
                                                        "MPI_ERR_RMA_ATTACH"), RMA_SHARED(
                                                            "MPI_ERR_RMA_SHARED"), RMA_FLAVOR("MPI_ERR_RMA_FLAVOR"),
    /** MPICH only (an MPI-4 class). */
    PROC_ABORTED("MPI_ERR_PROC_ABORTED"),
    /** MPICH's fault-tolerance extension ({@code MPIX_ERR_PROC_FAILED}); not in Open MPI 4.1's mpi.h. */
    PROC_FAILED("MPIX_ERR_PROC_FAILED"),
    /** A number the implementation returned that is none of the classes above. */
    UNLISTED("");

    private final String cName;

    MpiErrorClass(final String cName) {
        this.cName = cName;
    }

    /**
     * @return the name of the class in {@code mpi.h}, e.g. {@code MPI_ERR_RMA_RANGE} (empty for
     *         {@link #UNLISTED}).
     */
    public String cName() {
        return cName;
    }

    /**
     * @param abi         the implementation that returned the number.
     * @param nativeClass an error class as the implementation numbers it (from {@code MPI_Error_class}).
     * @return its class, or {@link #UNLISTED}.
     */
    public static MpiErrorClass of(final MpiAbi abi, final int nativeClass) {
        for (final MpiErrorClass errorClass : values()) {
            final Long value = abi.constants().get(errorClass.cName);
            if (value != null && value == nativeClass) {
                return errorClass;
            }
        }
        return UNLISTED;
    }
}
