package org.rma4j.litmus.model;

/**
 * Values of the model are longs; {@link #TOP} is coreRMA's undefined value (rule C: a read in a
 * conflict, or from a write in a conflict, returns T). Any operation with T yields T, and T matches
 * every concrete value when observed states are compared with allowed ones.
 */
public final class Value {
    /** The undefined value (litmus files cannot write Long.MIN_VALUE: numbers are at most 2^62). */
    public static final long TOP = Long.MIN_VALUE;
    /** What a run records for a payload variable whose elements differ (no model value is this). */
    public static final long TORN = Long.MIN_VALUE + 1;

    private Value() {
    }

    /** @return the value as states print it: the number, or {@code ?} for T. */
    public static String format(final long value) {
        return value == TOP ? "?" : value == TORN ? "torn" : Long.toString(value);
    }

    /** @return whether an observed (or allowed) value {@code concrete} is covered by allowed {@code allowed}. */
    public static boolean covers(final long allowed, final long concrete) {
        return allowed == TOP || allowed == concrete;
    }
}
