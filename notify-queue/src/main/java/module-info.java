/**
 * The notification lanes of rma4j's Notified Access: bounded single-producer lanes in shared memory, one per
 * origin and target, and the matching of notifications to requests. Not an API: exported only to the runtime.
 */
module org.rma4j.notify {
    requires transitive org.rma4j.shm;

    exports org.rma4j.notify to org.rma4j.runtime;
}
