package org.rma4j.mpi;

/**
 * The predefined datatypes the binding names (MPI-3.1 sections 3.2.2 and 5.9.4), with the extent of one
 * element on LP64 Linux (x86-64, AArch64), which buffer checks use. The pair types of {@code MPI_MINLOC}
 * / {@code MPI_MAXLOC} have the extent of the C struct (value, int), padding included.
 */
public enum MpiBasicType {
    BYTE("MPI_BYTE", 1), CHAR("MPI_CHAR", 1), SHORT("MPI_SHORT", 2), INT("MPI_INT", 4), LONG("MPI_LONG", 8), LONG_LONG(
        "MPI_LONG_LONG", 8), UNSIGNED("MPI_UNSIGNED", 4), UNSIGNED_LONG("MPI_UNSIGNED_LONG", 8), FLOAT("MPI_FLOAT",
            4), DOUBLE("MPI_DOUBLE", 8), INT8_T("MPI_INT8_T", 1), INT16_T("MPI_INT16_T", 2), INT32_T("MPI_INT32_T",
                4), INT64_T("MPI_INT64_T", 8), UINT8_T("MPI_UINT8_T", 1), UINT16_T("MPI_UINT16_T",
                    2), UINT32_T("MPI_UINT32_T", 4), UINT64_T("MPI_UINT64_T", 8), AINT("MPI_AINT",
                        8), FLOAT_INT("MPI_FLOAT_INT", 8), DOUBLE_INT("MPI_DOUBLE_INT",
                            16), LONG_INT("MPI_LONG_INT", 16), SHORT_INT("MPI_SHORT_INT", 8), TWO_INT("MPI_2INT", 8);

    private final String cName;
    private final int extentBytes;

    MpiBasicType(final String cName, final int extentBytes) {
        this.cName = cName;
        this.extentBytes = extentBytes;
    }

    /**
     * @return the datatype's name in {@code mpi.h}.
     */
    public String cName() {
        return cName;
    }

    /**
     * @return the extent of one element in bytes ({@code MPI_Type_get_extent}).
     */
    public int extentBytes() {
        return extentBytes;
    }
}
