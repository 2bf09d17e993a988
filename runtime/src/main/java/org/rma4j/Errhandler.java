package org.rma4j;

/**
 * The error handler of a window (MPI_Errhandler of a window, MPI-3.1 sections 8.3.3 and 11.6.1), mapped
 * onto rma4j's exceptions. Every error of a window call is an {@link RmaException} with its
 * {@link ErrorClass}; the window's handler decides what happens before the call ends:
 * <ul>
 *   <li>{@link #ERRORS_RETURN} (rma4j's default for every window): the call throws the exception, the Java
 *   form of returning the error code. MPI's default for windows is {@link #ERRORS_ARE_FATAL}; an uncaught
 *   exception ends the rank and so the job (see {@link RmaJob}), which is close to it.</li>
 *   <li>{@link #ERRORS_ARE_FATAL}: the rank prints the error class, the call and the message and aborts the
 *   job as {@link RmaJob#abort(int)} does (MPI_ABORT), with the error class's code as exit status; in thread
 *   mode the call throws {@link JobAbortedException}.</li>
 *   <li>a handler of {@link Window#createErrhandler} (MPI_WIN_CREATE_ERRHANDLER): called with the window and
 *   the exception, then the call throws the exception (if the handler throws, its exception instead).</li>
 * </ul>
 * Errors of the creation calls go to the job: they throw, as with ERRORS_RETURN. Immutable, thread-safe.
 */
public final class Errhandler {
    /** MPI_WIN_ERRHANDLER_FUNCTION: what a user handler receives. */
    @FunctionalInterface
    public interface Function {
        /**
         * Handles {@code error} of a call on {@code window}; the call throws {@code error} afterwards.
         */
        void handle(Window window, RmaException error);
    }

    /** MPI_ERRORS_ARE_FATAL: an error aborts the job. */
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler("MPI_ERRORS_ARE_FATAL", null);
    /** MPI_ERRORS_RETURN: an error is thrown to the caller (the default of rma4j's windows). */
    public static final Errhandler ERRORS_RETURN = new Errhandler("MPI_ERRORS_RETURN", null);

    private final String name;
    private final Function function;

    private Errhandler(final String name, final Function function) {
        this.name = name;
        this.function = function;
    }

    /**
     * MPI_WIN_CREATE_ERRHANDLER; see {@link Window#createErrhandler}.
     */
    static Errhandler create(final Function function) {
        if (function == null) {
            throw new RmaException(ErrorClass.ARG, "createErrhandler function is null");
        }
        return new Errhandler(null, function);
    }

    /**
     * @return the user function, or null for the predefined handlers.
     */
    Function function() {
        return function;
    }

    @Override
    public String toString() {
        return name != null ? name : "Errhandler(" + function + ")";
    }
}
