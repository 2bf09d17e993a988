package org.rma4j;

import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The error handler of one window at this rank (MPI_WIN_SET_ERRHANDLER, MPI-3.1 sections 8.3.3 and 11.6.1)
 * and the one place where a window call's {@link RmaException} meets it ({@link #raise}), which passes it to
 * the handler ({@link Errhandler}) before it leaves the call. A nested call (an array overload calling the
 * segment form) hands an exception to the handler once.
 *
 * <p>The window's parts ({@link TargetAccess}, {@link PassiveTarget}, {@link ActiveTarget}, {@link NotifiedAccess},
 * {@link NotifyCounters}, {@link AttributeCache}, {@link WindowLifecycle}) catch their exception in each call and
 * call {@link #raise}: no lambda is made, so the JIT inlines and scalar-replaces their call path exactly as without
 * a handler (a capturing lambda per call was measured to survive escape analysis in one JVM run of five of
 * {@code PutGetBenchmark.put}). Two calls of {@code NotifiedAccess}, which keeps no handler of its own for them,
 * pass a lambda to {@link #call} or {@link #callInt}. Cost when nothing fails: a try block; the handler is read
 * only when a call throws.
 * Thread-safe: the handler is a volatile field.
 */
final class WindowErrors {
    private final WindowState state;
    private volatile Errhandler handler = Errhandler.ERRORS_RETURN;
    private Window window;

    WindowErrors(final WindowState state) {
        this.state = state;
    }

    /** Completes the wiring: the window the handlers receive. */
    void bind(final Window window) {
        this.window = window;
    }

    Errhandler handler() {
        return handler;
    }

    void handler(final Errhandler errhandler) {
        if (errhandler == null) {
            throw new RmaException(ErrorClass.ARG, "setErrhandler handler is null (use Errhandler.ERRORS_RETURN)");
        }
        handler = errhandler;
    }

    <T> T call(final String call, final Supplier<T> body) {
        try {
            return body.get();
        } catch (final RmaException e) {
            throw raise(call, e);
        }
    }

    int callInt(final String call, final IntSupplier body) {
        try {
            return body.getAsInt();
        } catch (final RmaException e) {
            throw raise(call, e);
        }
    }

    /**
     * Hands {@code e}, thrown by window call {@code call}, to the window's handler, once.
     *
     * @return {@code e}, for the caller to throw.
     * @throws JobAbortedException in thread mode under ERRORS_ARE_FATAL (in process mode the job ends).
     */
    RmaException raise(final String call, final RmaException e) {
        final Errhandler current = handler;
        // NOTE: an abort under ERRORS_ARE_FATAL leaves an outer call as a JobAbortedException: not an error
        // of that call.
        if (current == Errhandler.ERRORS_RETURN || e instanceof JobAbortedException || e.markHandled()) {
            return e;
        }
        if (current == Errhandler.ERRORS_ARE_FATAL) {
            System.err.println("rma4j: rank " + state.rank() + ": " + e.errorClass().mpiName() + " in " + call
                + " on window " + state.number() + " is fatal (MPI_ERRORS_ARE_FATAL), the job is aborted with status "
                + e.errorClass().code() + ": " + e.getMessage());
            System.err.flush();
            state.job().abort(e.errorClass().code());
        }
        try {
            current.function().handle(window, e);
        } catch (final RmaException thrown) {
            thrown.markHandled();
            throw thrown;
        }
        return e;
    }
}
