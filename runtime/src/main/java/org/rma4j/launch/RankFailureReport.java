package org.rma4j.launch;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import org.rma4j.RankFailedException;

/**
 * How a rank reports the exception that ended it, on its standard error (which the launcher forwards,
 * prefixed with the rank): once, short, first cause first.
 *
 * <p>The report is the exception that ended the rank with at most {@link #MAX_FRAMES} frames, then one
 * line per cause (each exception once, so a circular chain ends), and one line per suppressed
 * exception (at most {@link #MAX_SUPPRESSED}) without its trace: when a failure unwinds through
 * {@code try}-with-resources, what the closes threw is a consequence. A rank that stops only because
 * another rank failed ({@link RankFailedException} naming another rank) reports one line: the failing
 * rank reports itself.
 */
public final class RankFailureReport {
    /** Frames of the failing exception's stack shown. */
    public static final int MAX_FRAMES = 12;
    /** Causes listed. */
    public static final int MAX_CAUSES = 5;
    /** Suppressed exceptions listed, one line each. */
    public static final int MAX_SUPPRESSED = 3;

    private RankFailureReport() {
    }

    /**
     * @param rank    the rank that ends.
     * @param failure what ended it.
     * @return the report, lines separated by '\n', ending with one.
     */
    public static String describe(final int rank, final Throwable failure) {
        final StringBuilder report = new StringBuilder();
        if (failure instanceof RankFailedException peer && peer.rank() != rank) {
            report.append("rma4j: rank ").append(rank).append(" stopped because another rank failed: ")
                .append(failure.getMessage()).append('\n');
            return report.toString();
        }
        report.append("rma4j: rank ").append(rank).append(" failed: ").append(failure).append('\n');
        final StackTraceElement[] frames = failure.getStackTrace();
        final int shown = Math.min(frames.length, MAX_FRAMES);
        for (int i = 0; i < shown; i++) {
            report.append("\tat ").append(frames[i]).append('\n');
        }
        if (frames.length > shown) {
            report.append("\t... ").append(frames.length - shown).append(" more\n");
        }
        final Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        seen.add(failure);
        Throwable cause = failure.getCause();
        int causes = 0;
        while (cause != null && seen.add(cause) && causes < MAX_CAUSES) {
            report.append("Caused by: ").append(cause).append('\n');
            final StackTraceElement[] causeFrames = cause.getStackTrace();
            if (causeFrames.length > 0) {
                report.append("\tat ").append(causeFrames[0]).append('\n');
            }
            cause = cause.getCause();
            causes++;
        }
        final Throwable[] suppressed = failure.getSuppressed();
        for (int i = 0; i < Math.min(suppressed.length, MAX_SUPPRESSED); i++) {
            report.append("Suppressed: ").append(suppressed[i]).append('\n');
        }
        if (suppressed.length > MAX_SUPPRESSED) {
            report.append("(").append(suppressed.length - MAX_SUPPRESSED).append(" more suppressed)\n");
        }
        return report.toString();
    }
}
