package org.rma4j.shm;

/**
 * Lifecycle of a rank as recorded in the rank table of the control file.
 */
public enum RankState {
    /** Not joined yet. */
    EMPTY,
    /** Joined and running. */
    JOINED,
    /** Left the job normally. */
    FINISHED,
    /** Died or was declared failed by the launcher or the thread runner. */
    FAILED,
    /** Claimed by a process that is writing its pid and start time; treated like EMPTY by readers. */
    JOINING,
    /** Stopped because another rank failed: a consequence, never reported ahead of the failure itself. */
    ABORTED;

    private static final RankState[] VALUES = values();

    static RankState of(final int code) {
        return code >= 0 && code < VALUES.length ? VALUES[code] : FAILED;
    }
}
