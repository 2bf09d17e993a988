package org.rma4j;

import org.rma4j.internal.mpi.AmLayout;
import org.rma4j.internal.mpi.MpiLink;
import org.rma4j.internal.mpi.NativeBuffers;
import org.rma4j.shm.ControlFile;

/**
 * In a job across nodes, the messages by which a failing rank tells every other rank that it failed: their
 * waits then throw {@link RankFailedException} naming it (their rows of this rank are in other nodes' control
 * files) without waiting for the launcher to end the job. A rank receiving one marks the sender failed in its
 * node's control file.
 */
final class FailureNotices {
    /** Key of the failure messages on the link. */
    private static final long FAILURE_KEY = 1L << 61;
    /** How long a failing rank gives its failure notices to leave before it goes on ending. */
    private static final long FAILURE_NOTICE_NS = 1_000_000_000L;

    private FailureNotices() {
    }

    /** Marks a rank of another node failed in {@code control} when its notice arrives. */
    static void listen(final MpiLink link, final ControlFile control) {
        link.register(FAILURE_KEY, notice -> {
            control.markFailed(notice.source());
            return true;
        });
    }

    /** Stops listening, before the control file is closed. */
    static void stop(final MpiLink link) {
        // NOTE: under the link's lock: a notice being applied finishes before the control file goes.
        link.lock();
        try {
            link.unregister(FAILURE_KEY);
        } finally {
            link.unlock();
        }
    }

    /** Tells every rank but {@code rank} of a job of {@code size} ranks that it failed; gives it a second to leave. */
    static void announce(final MpiLink link, final int size, final int rank) {
        for (int r = 0; r < size; r++) {
            if (r != rank) {
                final NativeBuffers.Buffer notice = link.request(0);
                AmLayout.writeHeader(notice.segment(), 1, FAILURE_KEY, r, rank, 0, 0, 0, 0, 0);
                link.send(r, notice);
            }
        }
        link.drainSends(FAILURE_NOTICE_NS);
    }
}
