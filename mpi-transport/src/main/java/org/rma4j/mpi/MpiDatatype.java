package org.rma4j.mpi;

/**
 * An MPI datatype handle ({@code MPI_Datatype}) with the extent of one element, which the binding uses to
 * check that a buffer holds {@code count} elements.
 *
 * @param handle      the implementation's handle.
 * @param name        its name, e.g. {@code MPI_INT64_T}.
 * @param extentBytes the extent of one element in bytes.
 */
public record MpiDatatype(long handle, String name, long extentBytes) {
    /**
     * @return the predefined datatype (needs the library: the first call loads it).
     */
    public static MpiDatatype of(final MpiBasicType type) {
        return Predefined.type(type);
    }

    @Override
    public String toString() {
        return name;
    }
}
