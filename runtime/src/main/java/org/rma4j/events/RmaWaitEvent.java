package org.rma4j.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;

/**
 * The fields every rma4j wait event has. Created and committed only through {@link Waits}.
 *
 * <p>An event is begun at the call and committed at its return if it lasted at least its type's
 * threshold: the default thresholds ({@link Waits#DEFAULT_THRESHOLD}) keep the uncontended calls, which
 * do not wait, out of a recording; a settings file with threshold {@code 0 ms} records every call.
 */
@Category("rma4j")
public abstract class RmaWaitEvent extends Event {
    @Label("Window")
    @Description("The window's number in its job (in order of creation, from 0), or -1 for a call on the job")
    int window;

    @Label("Peer")
    @Description("The rank waited for (target of a lock, source of a notification or message, the last rank "
        + "a PSCW call waited for), or -1 for a collective call or any source")
    int peer;

    @Label("Tag")
    @Description("The tag waited for, -1 for any tag or a call without tags")
    int tag;

    @Label("Rank")
    @Description("The rank that waited")
    int rank;

    @Label("Call")
    @Description("The blocking call, e.g. lock(EXCLUSIVE), fence, NotifyRequest.await")
    String call;

    /** The {@link Waits} kind (not recorded). */
    transient int kind;

    /** A shared stand-in of an untimed call: neither begun nor committed (not recorded). */
    transient boolean untimed;

    /** {@link System#nanoTime()} at the begin, for the window's wait counters (not recorded). */
    transient long startNs;

    RmaWaitEvent() {
    }

    /**
     * @return the {@link Waits} kind of this event.
     */
    public int kind() {
        return kind;
    }
}
