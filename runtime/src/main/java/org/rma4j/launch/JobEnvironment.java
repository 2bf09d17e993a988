package org.rma4j.launch;

/**
 * The environment variables through which a launcher tells each process of a job who it is.
 */
public final class JobEnvironment {
    /** The process's rank, 0..size-1. */
    public static final String RANK = "RMA4J_RANK";
    /** The number of ranks in the job. */
    public static final String SIZE = "RMA4J_SIZE";
    /** The job directory holding the control file and the window files. */
    public static final String JOB_DIR = "RMA4J_JOB_DIR";
    /** Pid of the launcher, which the rank watches: it ends when the launcher is gone. */
    public static final String LAUNCHER_PID = "RMA4J_LAUNCHER_PID";
    /** Start time of the launcher (milliseconds since the epoch), telling it apart from a reused pid. */
    public static final String LAUNCHER_START_MILLIS = "RMA4J_LAUNCHER_START_MILLIS";

    private JobEnvironment() {
    }
}
