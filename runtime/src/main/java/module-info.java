/**
 * rma4j: MPI-3 one-sided communication (windows, epochs, atomics) and Notified Access over shared memory,
 * for the ranks of one machine. The API is {@code org.rma4j}; {@code org.rma4j.launch} starts jobs of
 * rank processes ({@code rmarun}). {@code org.rma4j.internal} (shared-memory layouts, lock words, atomic
 * element access) is not exported.
 *
 * <p>On the module path the application runs with
 * {@code --enable-native-access=org.rma4j.shm,org.rma4j.notify,org.rma4j.runtime} (FFM's restricted
 * methods map files and call futex). picocli is needed only by the launcher's command line
 * ({@link org.rma4j.launch.RmaRun}): add it with {@code --add-modules info.picocli} to run that.
 */
module org.rma4j.runtime {
    requires org.rma4j.shm;
    requires org.rma4j.notify;
    requires org.rma4j.mpi;
    requires static info.picocli;
    requires jdk.jfr;

    exports org.rma4j;
    exports org.rma4j.launch;
    exports org.rma4j.messaging;

    // picocli reads and sets the launcher's annotated option fields reflectively.
    opens org.rma4j.launch to info.picocli;
}
