package org.rma4j.litmus.syntax;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A parsed litmus program.
 *
 * @param name       the test name (after {@code RMA}).
 * @param doc        the optional quoted description, or "".
 * @param info       header lines {@code key = value} (e.g. {@code atomicity = nonatomic}), in file order.
 * @param variables  memory variables with owner and initial value, in declaration order.
 * @param processes  the statements of each process, indexed by process number.
 * @param locations  the {@code locations [...]} directive, or null: which locations a final state shows.
 * @param condition  the final condition, or null if the file has none.
 */
public record Program(
    String name, String doc, Map<String, String> info, List<Variable> variables, List<List<Stmt>> processes,
    List<Loc> locations, Condition condition) {

    /** Header key selecting the default atomicity ({@code atomic} or {@code nonatomic}). */
    public static final String ATOMICITY_KEY = "atomicity";

    /** A memory variable: its unique name, its owner process and its initial value. */
    public record Variable(String name, int owner, long init, SourcePos pos) {
    }

    public Program {
        info = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(info));
        variables = List.copyOf(variables);
        final List<List<Stmt>> copy = new ArrayList<>();
        for (final List<Stmt> p : processes) {
            copy.add(List.copyOf(p));
        }
        processes = List.copyOf(copy);
        locations = locations == null ? null : List.copyOf(locations);
    }

    /** @return the number of processes. */
    public int processCount() {
        return processes.size();
    }

    /** @return the program's default atomicity (ATOMIC unless the header says nonatomic). */
    public Atomicity defaultAtomicity() {
        return "nonatomic".equals(info.get(ATOMICITY_KEY)) ? Atomicity.NONATOMIC : Atomicity.ATOMIC;
    }

    /** @return the variable called {@code name}, or null. */
    public Variable variable(final String name) {
        for (final Variable v : variables) {
            if (v.name().equals(name)) {
                return v;
            }
        }
        return null;
    }

    /** @return the variables owned by {@code proc}, in declaration order. */
    public List<Variable> variablesOf(final int proc) {
        final List<Variable> owned = new ArrayList<>();
        for (final Variable v : variables) {
            if (v.owner() == proc) {
                owned.add(v);
            }
        }
        return owned;
    }

    /** @return the registers of {@code proc} (targets of its local reads), sorted. */
    public List<String> registersOf(final int proc) {
        final TreeSet<String> registers = new TreeSet<>();
        for (final Stmt s : processes.get(proc)) {
            if (s instanceof Stmt.LocalRead r) {
                registers.add(r.register());
            }
        }
        return List.copyOf(registers);
    }

    /**
     * @return whether some process opens an access epoch itself (fence, lock or lock_all). Programs
     *         without any are coreRMA programs: they run inside an implicit lock_all epoch.
     */
    public boolean hasExplicitEpochs() {
        for (final List<Stmt> p : processes) {
            for (final Stmt s : p) {
                if (s instanceof Stmt.Sync sync && (sync.kind() == Stmt.SyncKind.FENCE
                    || sync.kind() == Stmt.SyncKind.LOCK || sync.kind() == Stmt.SyncKind.LOCK_ALL)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @return the locations a final state consists of: the {@code locations} directive if present,
     *         else every register of every process, then every variable.
     */
    public List<Loc> stateLocations() {
        if (locations != null) {
            return locations;
        }
        final List<Loc> all = new ArrayList<>();
        for (int p = 0; p < processCount(); p++) {
            for (final String r : registersOf(p)) {
                all.add(Loc.register(p, r));
            }
        }
        for (final Variable v : variables) {
            all.add(Loc.memory(v.name()));
        }
        return all;
    }

    /** @return a copy whose default atomicity is {@code atomicity} (ATOMIC or NONATOMIC). */
    public Program withDefaultAtomicity(final Atomicity atomicity) {
        final Map<String, String> newInfo = new LinkedHashMap<>(info);
        newInfo.put(ATOMICITY_KEY, atomicity == Atomicity.NONATOMIC ? "nonatomic" : "atomic");
        return new Program(name, doc, newInfo, variables, processes, locations, condition);
    }

    /** @return a copy with another name. */
    public Program withName(final String newName) {
        return new Program(newName, doc, info, variables, processes, locations, condition);
    }

    /** @return a copy with another condition. */
    public Program withCondition(final Condition newCondition) {
        return new Program(name, doc, info, variables, processes, locations, newCondition);
    }
}
