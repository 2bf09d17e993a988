package org.rma4j.litmus.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.rma4j.litmus.model.State;
import org.rma4j.litmus.syntax.Loc;
import org.rma4j.litmus.syntax.Program;

/**
 * Observed final states and how often each occurred.
 *
 * @param locations what each state's values are ({@link Program#stateLocations()}).
 * @param counts    occurrences of each state, sorted by state.
 */
public record Histogram(List<Loc> locations, Map<State, Long> counts) {
    public Histogram {
        locations = List.copyOf(locations);
        counts = java.util.Collections.unmodifiableMap(new TreeMap<>(counts));
    }

    /** @return the total number of runs. */
    public long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Builds the histogram from the rows each rank recorded ({@link RankProgram}).
     *
     * @param rows rows of each rank, indexed by rank, then iteration.
     */
    public static Histogram of(final Program program, final List<long[][]> rows) {
        final List<Loc> locations = program.stateLocations();
        final int[] rank = new int[locations.size()];
        final int[] column = new int[locations.size()];
        for (int i = 0; i < locations.size(); i++) {
            final Loc loc = locations.get(i);
            if (loc.isRegister()) {
                rank[i] = loc.proc();
                column[i] = program.registersOf(loc.proc()).indexOf(loc.name());
            } else {
                final Program.Variable v = program.variable(loc.name());
                rank[i] = v.owner();
                column[i] = program.registersOf(v.owner()).size() + program.variablesOf(v.owner()).indexOf(v);
            }
        }
        final int iterations = rows.getFirst().length;
        final Map<State, Long> counts = new TreeMap<>();
        final long[] values = new long[locations.size()];
        for (int it = 0; it < iterations; it++) {
            for (int i = 0; i < values.length; i++) {
                values[i] = rows.get(rank[i])[it][column[i]];
            }
            counts.merge(new State(values), 1L, Long::sum);
        }
        return new Histogram(locations, counts);
    }

    /** @return the histogram of two runs together. */
    public Histogram merge(final Histogram other) {
        final Map<State, Long> sum = new TreeMap<>(counts);
        other.counts.forEach((s, c) -> sum.merge(s, c, Long::sum));
        return new Histogram(locations, sum);
    }

    /** @return the observed states. */
    public List<State> states() {
        return new ArrayList<>(counts.keySet());
    }
}
