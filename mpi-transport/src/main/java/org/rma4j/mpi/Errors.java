package org.rma4j.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Turns the return codes of MPI calls and the binding's own argument checks into {@link MpiException}s. */
final class Errors {
    private Errors() {
    }

    /**
     * @param code    the code a call returned (not {@code MPI_SUCCESS}).
     * @param call    the MPI function.
     * @param details the offending arguments, e.g. {@code "target_rank=9 target_disp=0 count=1"}.
     * @return the exception with the class from {@code MPI_Error_class} and the text from
     *         {@code MPI_Error_string}.
     */
    static MpiException of(final int code, final String call, final String details) {
        int nativeClass = -1;
        String text = "error code " + code;
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment classOut = arena.allocate(ValueLayout.JAVA_INT);
            if ((int)MpiNative.ERROR_CLASS.invokeExact(code, classOut) == 0) {
                nativeClass = classOut.get(ValueLayout.JAVA_INT, 0);
            }
            final MemorySegment string = arena.allocate(Predefined.MAX_ERROR_STRING + 1L);
            final MemorySegment length = arena.allocate(ValueLayout.JAVA_INT);
            if ((int)MpiNative.ERROR_STRING.invokeExact(code, string, length) == 0) {
                text = string.getString(0);
            }
        } catch (final Throwable t) {
            text += " (MPI_Error_class / MPI_Error_string failed: " + t + ")";
        }
        final MpiErrorClass errorClass = nativeClass < 0
            ? MpiErrorClass.UNLISTED
            : MpiErrorClass.of(MpiNative.ABI, nativeClass);
        return new MpiException(errorClass, nativeClass, code, call, details.isEmpty() ? text : text + "; " + details);
    }

    /** @return an error of the binding's own argument checks, before any call into MPI. */
    static MpiException binding(final MpiErrorClass errorClass, final String call, final String message) {
        return new MpiException(errorClass, -1, MpiException.NOT_FROM_MPI, call, message);
    }

    /** @return a throwable from {@code invokeExact} as an unchecked exception to throw. */
    static RuntimeException rethrow(final Throwable t) {
        if (t instanceof RuntimeException e) {
            return e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    /**
     * Checks that {@code buffer} is native memory that holds {@code count} elements of {@code type}.
     */
    static void checkBuffer(final MemorySegment buffer, final long count, final MpiDatatype type, final String call,
        final String argument) {
        if (!buffer.isNative()) {
            throw binding(MpiErrorClass.BUFFER, call, argument + " is a heap segment; MPI needs native memory");
        }
        if (count > 0 && buffer.byteSize() < count * type.extentBytes()) {
            throw binding(MpiErrorClass.BUFFER, call, argument + " of " + buffer.byteSize() + " bytes is too small for "
                + count + " x " + type.name() + " (" + count * type.extentBytes() + " bytes)");
        }
    }
}
