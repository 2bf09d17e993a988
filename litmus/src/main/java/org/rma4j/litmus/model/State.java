package org.rma4j.litmus.model;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.rma4j.litmus.syntax.Loc;

/**
 * A final state: one value per location of a location list (registers, then memory), T allowed.
 * Immutable; ordered lexicographically with T first.
 */
public final class State implements Comparable<State> {
    private final long[] values;

    public State(final long[] values) {
        this.values = values.clone();
    }

    /** @return the value at index {@code i} of the location list. */
    public long get(final int i) {
        return values[i];
    }

    public int size() {
        return values.length;
    }

    /** @return whether some value is T. */
    public boolean hasTop() {
        for (final long v : values) {
            if (v == Value.TOP) {
                return true;
            }
        }
        return false;
    }

    /** @return whether this (allowed) state covers {@code concrete}: equal everywhere except where this is T. */
    public boolean covers(final State concrete) {
        for (int i = 0; i < values.length; i++) {
            if (!Value.covers(values[i], concrete.values[i])) {
                return false;
            }
        }
        return true;
    }

    /** @return the state restricted to the given indices of its location list. */
    public State project(final int[] indices) {
        final long[] out = new long[indices.length];
        for (int i = 0; i < indices.length; i++) {
            out[i] = values[indices[i]];
        }
        return new State(out);
    }

    /** @return e.g. {@code 0:a=1; 1:b=?; X=2;} for the given locations. */
    public String format(final List<Loc> locations) {
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                out.append(' ');
            }
            out.append(locations.get(i)).append('=').append(Value.format(values[i])).append(';');
        }
        return out.toString();
    }

    /** @return the values by location. */
    public Map<Loc, Long> asMap(final List<Loc> locations) {
        final Map<Loc, Long> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            map.put(locations.get(i), values[i]);
        }
        return map;
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof State other && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public int compareTo(final State other) {
        return Arrays.compare(values, other.values);
    }

    @Override
    public String toString() {
        return Arrays.toString(values);
    }
}
