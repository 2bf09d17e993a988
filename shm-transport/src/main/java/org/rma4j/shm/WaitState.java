package org.rma4j.shm;

/**
 * What a rank is blocked in, as it publishes it in its row of the control file for the launcher's
 * reports ({@code rmarun --status}, {@code --timeout}, Ctrl-C): the call, the window, the peer it waits
 * for and since when.
 *
 * <p>A rank publishes its wait state only on the slow path of a wait, at its first liveness check
 * (after about {@link WaitStrategy#LIVENESS_PERIOD_NS} of waiting), and clears it when the wait ends;
 * waits that end sooner publish nothing. {@code sinceMillis} is therefore the time of that first
 * check: the rank has waited at least since then.
 *
 * @param call        the blocking call.
 * @param window      the window's number, or -1 for a call on the job.
 * @param peer        the rank waited for, or -1 for a collective call (it waits for every rank that has
 *                    not entered it).
 * @param callNumber  the job-wide sequence number of a collective call, or 0.
 * @param sinceMillis epoch milliseconds of the publication.
 */
public record WaitState(Call call, int window, int peer, int callNumber, long sinceMillis) {
    /**
     * The blocking calls a rank reports. Each has an explicit on-disk {@link #code()} (1..), independent of
     * the declaration order; 0 in the control file means "not blocked".
     */
    public enum Call {
        BARRIER(1, "barrier"), CREATE(2, "window creation"), CLOSE(3, "RmaJob.close"), FENCE(4, "fence"), FREE(5,
            "free"), LOCK(6, "lock"), START(7, "start"), WAIT(8, "wait"), LOCK_ALL(9, "lockAll"),
        /** A notification request's await / waitAny: peer is the source (-2: any), callNumber the tag (-1: any). */
        NOTIFY_WAIT(10, "notification wait"),
        /** A Messaging receive: peer is the source (-2: any), callNumber the tag (-1: any). */
        RECV(11, "Messaging recv"),
        /** A Messaging send: peer is the destination, callNumber the tag. */
        SEND(12, "Messaging send"),
        /** The collective calls of a communicator (codes from 32 on); window is -1, callNumber its sequence. */
        COMM_CREATE(32, "communicator creation"), COMM_FREE(33, "communicator free"), BCAST(34, "bcast"), GATHER(35,
            "gather"), SCATTER(36, "scatter"), ALLGATHER(37, "allgather"), ALLTOALL(38, "alltoall"), REDUCE(39,
                "reduce"), ALLREDUCE(40,
                    "allreduce"), REDUCE_SCATTER(41, "reduceScatter"), SCAN(42, "scan"), EXSCAN(43, "exscan");

        /** Code of "not blocked" in the wait call word. */
        public static final int NONE = 0;

        private static final Call[] BY_CODE = new Call[java.util.Arrays.stream(values()).mapToInt(Call::code).max()
            .orElse(NONE) + 1];

        static {
            for (final Call call : values()) {
                if (call.code == NONE || BY_CODE[call.code] != null) {
                    throw new ExceptionInInitializerError("wait call code " + call.code + " is reserved or used twice");
                }
                BY_CODE[call.code] = call;
            }
        }

        private final int code;
        private final String callName;

        Call(final int code, final String callName) {
            this.code = code;
            this.callName = callName;
        }

        /**
         * @return the name of the call in reports, e.g. {@code "fence"}.
         */
        public String callName() {
            return callName;
        }

        /**
         * @return the value stored in the control file's wait call word for this call (never {@link #NONE}).
         */
        public int code() {
            return code;
        }

        /**
         * @param code a value read from a wait call word.
         * @return the call with that code, or null for {@link #NONE} or a code no call has.
         */
        public static Call of(final int code) {
            return code > NONE && code < BY_CODE.length ? BY_CODE[code] : null;
        }
    }

    /**
     * @return whether the call is collective: the rank waits for every rank that has not entered it.
     */
    public boolean collective() {
        return peer < 0;
    }

    /**
     * @return e.g. {@code "fence on window 0 (collective call #5)"}, {@code "lock on window 1, target 2"} or
     *         {@code "start on window 0, waiting for the post of rank 1"}.
     */
    public String describe() {
        final StringBuilder text = new StringBuilder(call.callName());
        if (window >= 0) {
            text.append(" on window ").append(window);
        }
        if (peer >= 0) {
            text.append(switch (call) {
                case START -> ", waiting for the post of rank ";
                case WAIT -> ", waiting for the complete of rank ";
                default -> ", target ";
            }).append(peer);
        }
        if (callNumber > 0) {
            text.append(" (collective call #").append(callNumber).append(')');
        }
        return text.toString();
    }
}
