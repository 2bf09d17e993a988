/**
 * rma4j's shared-memory layer: job directories, mapped files, wait words, futexes, the control file and
 * its barrier, the wait strategy. Not an API: exported only to the rma4j modules built on it. Uses
 * restricted FFM methods (futex, mmap), so a module-path application runs with
 * {@code --enable-native-access=org.rma4j.shm}.
 */
module org.rma4j.shm {
    exports org.rma4j.shm to org.rma4j.notify, org.rma4j.runtime;
}
