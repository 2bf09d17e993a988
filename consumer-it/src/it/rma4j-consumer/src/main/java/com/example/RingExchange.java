package com.example;

import java.lang.foreign.ValueLayout;

import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;

/**
 * A program of a project that uses rma4j as a library: each rank puts its rank into its right
 * neighbour's part of a shared window inside a fence epoch and checks what its left neighbour put.
 * Run it with {@code bin/rmarun -n 4 -cp target/classes com.example.RingExchange}.
 */
public final class RingExchange {
    private RingExchange() {
    }

    public static void main(final String[] args) throws Exception {
        Rma.run(job -> System.out.println(exchange(job)));
    }

    /** The exchange at one rank; returns its line, which ends with "verified", or throws. */
    public static String exchange(final RmaJob job) {
        final int me = job.rank();
        final int n = job.size();
        final int left = (me + n - 1) % n;
        try (Window win = job.allocateShared(8, 8)) {
            win.fence(Rma.MODE_NOPRECEDE);
            win.put(new long[] {me}, 0, 1, (me + 1) % n, 0);
            win.fence(Rma.MODE_NOSUCCEED);
            final long got = win.segment().get(ValueLayout.JAVA_LONG, 0);
            if (got != left) {
                throw new IllegalStateException("rank " + me + " of " + n + ": got " + got + " from the left neighbour, expected " + left);
            }
            return "rank " + me + " of " + n + ": got " + got + " from rank " + left + ", verified";
        }
    }
}
