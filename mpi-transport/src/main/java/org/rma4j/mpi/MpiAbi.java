package org.rma4j.mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;

/**
 * Everything in which two MPI implementations' application binary interfaces differ, in one place: how a
 * handle is passed, where the predefined objects are, the layout of {@code MPI_Status}, the values of the
 * constants, the library's name and the launcher's fingerprint. The binding reads nothing
 * implementation-specific from anywhere else.
 *
 * <p>The standard fixes the names, not the values (MPI-3.1 section 2.5 and Annex A): Open MPI's handles
 * are pointers to structs and its predefined objects are exported symbols ({@code MPI_COMM_WORLD} is
 * {@code &ompi_mpi_comm_world}); MPICH's handles are {@code int}s and its predefined objects are
 * constants ({@code MPI_COMM_WORLD} is {@code 0x44000000}). Even the small constants differ
 * ({@code MPI_ANY_SOURCE} is -1 in Open MPI and -2 in MPICH, {@code MPI_MODE_NOCHECK} 1 and 1024).
 *
 * <p>{@link #headerFacts()} lists every value an implementation's class assumes as a C expression with
 * its expected value; a test compiles them with the implementation's {@code mpicc} and compares.
 */
public interface MpiAbi {
    /** Open MPI 4.x ({@code libmpi.so.40}). */
    MpiAbi OPEN_MPI = new OpenMpiAbi();
    /** MPICH 3.x / 4.x ({@code libmpich.so.12}). */
    MpiAbi MPICH = new MpichAbi();

    /**
     * @return the implementation's name ({@code "Open MPI"}, {@code "MPICH"}), as its
     *         {@code MPI_Get_library_version} starts.
     */
    String name();

    /**
     * @return the file names of the library, most specific first (e.g. {@code libmpi.so.40},
     *         {@code libmpi.so}).
     */
    List<String> libraryNames();

    /**
     * @return the compiler wrappers that report the library's directory, most specific first (Debian
     *         installs both implementations side by side as {@code mpicc.openmpi} and {@code mpicc.mpich};
     *         plain {@code mpicc} is whichever was installed last).
     */
    List<String> compilerWrappers();

    /**
     * @param wrapper one of {@link #compilerWrappers()}.
     * @return the command that makes it print its link line or library directories.
     */
    List<String> linkLineCommand(String wrapper);

    /**
     * @param output what {@link #linkLineCommand} printed.
     * @return the library directories it names, or none if the output is not this implementation's.
     */
    List<String> libraryDirectories(String output);

    /**
     * @param environment a process's environment.
     * @return whether this implementation's launcher started the process (Open MPI's {@code mpirun} sets
     *         {@code OMPI_COMM_WORLD_RANK}, MPICH's Hydra {@code PMI_RANK}).
     */
    boolean launched(Map<String, String> environment);

    /**
     * @return how a handle is passed to and returned from the library: {@link ValueLayout#JAVA_LONG} for a
     *         pointer (passed as a 64-bit integer, which the LP64 calling conventions treat exactly as a
     *         pointer, so that handles stay {@code long}s in Java and no segment is made per call), or
     *         {@link ValueLayout#JAVA_INT}.
     */
    ValueLayout handleLayout();

    /**
     * @return the value of a handle stored in an out parameter of {@link #handleLayout()}.
     */
    default long readHandle(final MemorySegment slot, final long offset) {
        return handleLayout() instanceof ValueLayout.OfInt i
            ? slot.get(i, offset)
            : slot.get(ValueLayout.JAVA_LONG, offset);
    }

    /**
     * Stores a handle into an in-out parameter of {@link #handleLayout()}.
     */
    default void writeHandle(final MemorySegment slot, final long offset, final long handle) {
        if (handleLayout() instanceof ValueLayout.OfInt i) {
            slot.set(i, offset, (int)handle);
        } else {
            slot.set(ValueLayout.JAVA_LONG, offset, handle);
        }
    }

    /**
     * @param cName   a predefined object's name in {@code mpi.h}, e.g. {@code MPI_COMM_WORLD},
     *                {@code MPI_INT64_T}, {@code MPI_SUM}, {@code MPI_ERRORS_RETURN}.
     * @param library the loaded library.
     * @return its handle.
     * @throws IllegalArgumentException if the binding does not know the object.
     */
    long predefinedHandle(String cName, SymbolLookup library);

    /**
     * @return the integer constants by their names in {@code mpi.h}: thread levels, {@code MPI_MODE_*},
     *         {@code MPI_LOCK_*}, {@code MPI_ANY_SOURCE}, {@code MPI_ANY_TAG}, {@code MPI_PROC_NULL},
     *         {@code MPI_UNDEFINED}, {@code MPI_COMM_TYPE_SHARED}, {@code MPI_MAX_ERROR_STRING},
     *         {@code MPI_MAX_LIBRARY_VERSION_STRING}, the addresses {@code MPI_STATUS_IGNORE} and
     *         {@code MPI_IN_PLACE} (Open MPI 0 and 1, MPICH 1 and -1), the comparison results and the error classes.
     */
    Map<String, Long> constants();

    /**
     * @return the layout of {@code MPI_Status}, whose public fields are named {@code MPI_SOURCE},
     *         {@code MPI_TAG} and {@code MPI_ERROR}.
     */
    StructLayout statusLayout();

    /**
     * @return C expressions over {@code mpi.h} and the values this class assumes for them: every constant,
     *         the size and field offsets of {@code MPI_Status}, the size of a handle and of {@code MPI_Aint},
     *         and each predefined object (Open MPI: the expression compares the macro with the address of
     *         the symbol the binding looks up, expected 1; MPICH: the macro's value).
     */
    Map<String, Long> headerFacts();

    /**
     * @param name a constant's name in {@code mpi.h}.
     * @return its value.
     * @throws IllegalArgumentException if the implementation does not define it.
     */
    default int constant(final String name) {
        final Long value = constants().get(name);
        if (value == null) {
            throw new IllegalArgumentException(name() + " defines no " + name);
        }
        return value.intValue();
    }
}
