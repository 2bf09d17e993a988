package org.rma4j.litmus.run;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.rma4j.litmus.syntax.Program;

/**
 * Where each litmus variable lives in rma4j: one window of displacement unit 8 (one long per
 * variable); a variable owned by process p is at displacement i of p's part, i its index among p's
 * variables in declaration order.
 */
final class VariableLayout {
    private final Map<String, Integer> displacement = new HashMap<>();
    private final Map<String, Integer> owner = new HashMap<>();
    private final int[] counts;

    VariableLayout(final Program program) {
        counts = new int[program.processCount()];
        for (final Program.Variable v : program.variables()) {
            owner.put(v.name(), v.owner());
            displacement.put(v.name(), counts[v.owner()]++);
        }
    }

    int owner(final String variable) {
        return owner.get(variable);
    }

    /** @return the target displacement (in longs) of the variable in its owner's part. */
    int displacement(final String variable) {
        return displacement.get(variable);
    }

    /** @return byte offset of the variable in its owner's part. */
    long offset(final String variable) {
        return 8L * displacement(variable);
    }

    /** @return bytes of process {@code proc}'s part (at least 8: a zero-size part is legal but pointless). */
    long windowBytes(final int proc) {
        return 8L * Math.max(1, counts[proc]);
    }

    /** @return the variables {@code proc} owns, in displacement order. */
    static List<Program.Variable> owned(final Program program, final int proc) {
        return program.variablesOf(proc);
    }
}
