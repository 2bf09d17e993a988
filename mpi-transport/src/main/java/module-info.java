/**
 * rma4j's binding of MPI (Open MPI and MPICH through FFM downcalls) for jobs across nodes. Not an API: exported
 * only to the runtime, which loads it (and {@code libmpi}) only when a job runs under an MPI launcher. Calls
 * restricted FFM methods ({@code dlopen}, downcalls), so a module-path application runs with
 * {@code --enable-native-access=org.rma4j.mpi}.
 */
module org.rma4j.mpi {
    exports org.rma4j.mpi to org.rma4j.runtime;
}
