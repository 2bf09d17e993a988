package org.rma4j.mpi;

/**
 * The predefined reduction operations (MPI-3.1 section 5.9.2) and the two of one-sided accumulates
 * ({@code MPI_REPLACE}, {@code MPI_NO_OP}, section 11.3.4). Their handles are the implementation's, looked
 * up once when the library loads ({@link MpiAbi#predefinedHandle}).
 */
public enum MpiOp {
    MAX("MPI_MAX"), MIN("MPI_MIN"), SUM("MPI_SUM"), PROD("MPI_PROD"), LAND("MPI_LAND"), BAND("MPI_BAND"), LOR(
        "MPI_LOR"), BOR("MPI_BOR"), LXOR("MPI_LXOR"), BXOR(
            "MPI_BXOR"), MAXLOC("MPI_MAXLOC"), MINLOC("MPI_MINLOC"), REPLACE("MPI_REPLACE"), NO_OP("MPI_NO_OP");

    private final String cName;

    MpiOp(final String cName) {
        this.cName = cName;
    }

    /**
     * @return the operation's name in {@code mpi.h}.
     */
    public String cName() {
        return cName;
    }
}
