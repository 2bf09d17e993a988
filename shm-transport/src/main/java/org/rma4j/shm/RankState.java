package org.rma4j.shm;

/**
 * Lifecycle of a rank as recorded in the state word of its row of the control file
 * ({@link ControlLayout#ROW_STATE_OFFSET}).
 *
 * <p>Each state has an explicit on-disk {@link #code()}, independent of the declaration order; the codes
 * are part of the control file's layout ({@link ControlLayout#VERSION}) and never change meaning.
 * {@link #EMPTY} is 0, the content of a fresh file.
 */
public enum RankState {
    /** Not joined yet. */
    EMPTY(0),
    /** Joined and running. */
    JOINED(1),
    /** Left the job normally. */
    FINISHED(2),
    /** Died or was declared failed by the launcher or the thread runner. */
    FAILED(3),
    /** Claimed by a process that is writing its pid and start time; treated like EMPTY by readers. */
    JOINING(4),
    /** Stopped because another rank failed: a consequence, never reported ahead of the failure itself. */
    ABORTED(5),
    /**
     * Runs on another node of the job, which has its own file: this file does not follow its lifecycle, and
     * the job's launcher is what notices its death. Set by the file's creator, never joined.
     */
    ELSEWHERE(6);

    private static final RankState[] BY_CODE = new RankState[values().length];

    static {
        for (final RankState state : values()) {
            if (BY_CODE[state.code] != null) {
                throw new ExceptionInInitializerError("rank state code " + state.code + " is used twice");
            }
            BY_CODE[state.code] = state;
        }
    }

    private final int code;

    RankState(final int code) {
        this.code = code;
    }

    /**
     * @return the value stored in the control file for this state.
     */
    public int code() {
        return code;
    }

    /**
     * @param code a value read from a state word.
     * @return the state with that code; {@link #FAILED} for a code no state has (a corrupted row
     *         cannot be trusted to run).
     */
    public static RankState of(final int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : FAILED;
    }
}
