package org.rma4j.mpi;

/**
 * A child JVM of {@link MpiLibraryLocatorTest}: loads the library this JVM's properties select, prints where
 * it is and its version (MPI_Get_library_version may precede initialization), and with argument
 * {@code init} calls {@link Mpi#initThread}, which refuses a library of another implementation than the ABI.
 */
public final class LibraryProbe {
    private LibraryProbe() {
    }

    public static void main(final String[] args) {
        System.out.println("abi=" + Mpi.abi().name());
        System.out.println("path=" + Mpi.location().path());
        System.out.println("version=" + Mpi.libraryVersion().lines().findFirst().orElse(""));
        if (args.length > 0 && args[0].equals("init")) {
            Mpi.initThread(MpiThreadLevel.SINGLE);
        }
    }
}
