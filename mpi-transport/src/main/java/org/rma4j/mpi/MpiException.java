package org.rma4j.mpi;

import java.io.Serial;

/**
 * A call of the binding failed: the MPI library returned an error code (the binding sets
 * {@code MPI_ERRORS_RETURN} on every communicator and window, MPI-3.1 section 8.3), or the binding refused
 * the arguments before calling it (a buffer too small for the count, a heap segment). Carries the error
 * class as {@code MPI_Error_class} gave it, the implementation's own code and text ({@code MPI_Error_string}),
 * the call and its offending arguments.
 */
public class MpiException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** {@link #errorCode()} of an error found by the binding itself, before any call into MPI. */
    public static final int NOT_FROM_MPI = -1;

    private final MpiErrorClass errorClass;
    private final int errorCode;
    private final int nativeErrorClass;
    private final String call;

    /**
     * @param errorClass       the class.
     * @param nativeErrorClass the class as the implementation numbers it (-1 for the binding's own checks).
     * @param errorCode        the code the call returned ({@link #NOT_FROM_MPI} for the binding's own checks).
     * @param call             the MPI function, e.g. {@code MPI_Put}.
     * @param message          the implementation's text and the offending arguments.
     */
    public MpiException(final MpiErrorClass errorClass, final int nativeErrorClass, final int errorCode,
        final String call, final String message) {
        super(call + ": " + errorClass.cName() + (nativeErrorClass >= 0 ? " (" + nativeErrorClass + ")" : "") + ": "
            + message);
        this.errorClass = errorClass;
        this.nativeErrorClass = nativeErrorClass;
        this.errorCode = errorCode;
        this.call = call;
    }

    /**
     * @return the MPI error class.
     */
    public MpiErrorClass errorClass() {
        return errorClass;
    }

    /**
     * @return the error class as the implementation numbers it ({@code MPI_Error_class}), -1 for an error of
     *         the binding's own checks.
     */
    public int nativeErrorClass() {
        return nativeErrorClass;
    }

    /**
     * @return the error code the call returned (implementation-specific, may differ from the class), or
     *         {@link #NOT_FROM_MPI}.
     */
    public int errorCode() {
        return errorCode;
    }

    /**
     * @return the MPI function that failed, e.g. {@code MPI_Put}.
     */
    public String call() {
        return call;
    }
}
