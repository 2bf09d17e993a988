package org.rma4j.bench.harness;

import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Progress lines of a harness run: {@code [k/N] <step> (elapsed m:ss, about m:ss left)}, where the
 * time left is the mean duration of the steps done so far times the steps still to run (this one
 * included); no estimate before the first step has ended.
 */
final class Progress {
    private final int total;
    private final Consumer<String> log;
    private final LongSupplier nanoClock;
    private final long startNs;
    private int started;

    Progress(final int total, final Consumer<String> log) {
        this(total, log, System::nanoTime);
    }

    Progress(final int total, final Consumer<String> log, final LongSupplier nanoClock) {
        this.total = total;
        this.log = log;
        this.nanoClock = nanoClock;
        this.startNs = nanoClock.getAsLong();
    }

    /**
     * Logs the start of the next step.
     *
     * @return the line logged.
     */
    String begin(final String step) {
        final long elapsedNs = nanoClock.getAsLong() - startNs;
        final int done = started;
        started++;
        final String left = done == 0 ? "" : ", about " + minutes(elapsedNs / done * (total - done)) + " left";
        final String line = String.format(Locale.ROOT, "== [%d/%d] %s (elapsed %s%s)", started,
            Math.max(total, started), step, minutes(elapsedNs), left);
        log.accept(line);
        return line;
    }

    /**
     * Logs the end of the run.
     */
    void finish() {
        log.accept("== done: " + started + " steps in " + minutes(nanoClock.getAsLong() - startNs));
    }

    static String minutes(final long ns) {
        final long seconds = Math.round(ns / 1e9);
        return String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }
}
