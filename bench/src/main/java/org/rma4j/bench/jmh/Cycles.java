package org.rma4j.bench.jmh;

import java.util.concurrent.atomic.AtomicLong;
import org.rma4j.Window;

/**
 * Runs a synchronization cycle in which both ranks take part (fence, post-start-complete-wait) with
 * rank 1 as a {@link TwoRankJob.Partner} that repeats its side of the cycle, and stops that partner
 * without leaving either rank blocked in a half-matched cycle.
 *
 * <p>The benchmark thread (rank 0) counts the cycles it completed ({@link #originCompleted()}). To
 * stop, it publishes {@code stopAt = completed + 1} and runs one last cycle ({@link #stop}). The
 * partner checks {@code stopAt} before each cycle and stops once it has done {@code stopAt} cycles.
 * Why no rank is left waiting: the partner cannot finish a cycle that rank 0 has not entered, so
 * when rank 0 publishes stopAt the partner has done at most {@code completed} cycles and does
 * cycle {@code completed + 1} whether it read stopAt before it or not; after that cycle it reads
 * stopAt (the store precedes rank 0's last cycle, which synchronizes both ranks) and returns.
 *
 * <p>Why not a JMH {@code @Group} with one thread per rank: at the end of an iteration JMH stops
 * calling each thread's method independently, and rma4j's fence and PSCW waits cannot be abandoned
 * when the other thread stops calling (JMH's {@code Control.stopMeasurement} only helps waits that
 * poll it), so one rank can be left blocked in a cycle the other never enters and the run hangs.
 * A partner outside JMH's loop keeps the cycles matched.
 */
final class Cycles {
    /** One rank's side of one cycle. */
    @FunctionalInterface
    interface Side {
        void run(Window window);
    }

    private final AtomicLong stopAt = new AtomicLong(-1);
    private final Side partnerSide;
    private long completed;

    /**
     * @param partnerSide rank 1's side of one cycle.
     */
    Cycles(final Side partnerSide) {
        this.partnerSide = partnerSide;
    }

    /**
     * @return rank 1's loop, to pass to {@link TwoRankJob#start}.
     */
    TwoRankJob.Partner partner() {
        return window -> {
            long done = 0;
            while (true) {
                final long stop = stopAt.get();
                if (stop >= 0 && done >= stop) {
                    return;
                }
                partnerSide.run(window);
                done++;
            }
        };
    }

    /**
     * Records that rank 0 completed one cycle; called by the benchmark thread after each cycle.
     */
    void originCompleted() {
        completed++;
    }

    /**
     * @return the cycles rank 0 completed.
     */
    long completed() {
        return completed;
    }

    /**
     * Stops the partner: publishes the last cycle's number, then runs rank 0's side of it.
     *
     * @param window     rank 0's window.
     * @param originSide rank 0's side of one cycle.
     */
    void stop(final Window window, final Side originSide) {
        // NOTE: stopAt must be published before rank 0 enters the last cycle, so that the partner
        // reads it once that cycle has synchronized the two ranks.
        stopAt.set(completed + 1);
        originSide.run(window);
        completed++;
    }
}
