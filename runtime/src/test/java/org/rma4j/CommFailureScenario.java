package org.rma4j;

import java.lang.foreign.ValueLayout;

/**
 * The work of the half without the failed rank in the communicator failure tests.
 */
final class CommFailureScenario {
    private CommFailureScenario() {
    }

    /**
     * A barrier, an allreduce and a window used and freed over {@code half}.
     *
     * @return e.g. "sum=12 ring=ok".
     */
    static String otherHalf(final Communicator half) {
        half.barrier();
        final long sum = half.allreduce((long)half.group().member(half.rank()), Op.SUM);
        final Window window = half.allocateShared(8, 8);
        final int right = (half.rank() + 1) % half.size();
        final int left = (half.rank() + half.size() - 1) % half.size();
        window.fence(0);
        window.put(new long[] {half.rank()}, 0, 1, right, 0);
        window.fence(0);
        final boolean ring = window.segment().get(ValueLayout.JAVA_LONG, 0) == left;
        window.free();
        half.free();
        return "sum=" + sum + " ring=" + (ring ? "ok" : "broken");
    }
}
