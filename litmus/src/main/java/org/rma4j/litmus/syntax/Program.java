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
public record Program(String name, String doc, Map<String, String> info, List<Variable> variables,
    List<List<Stmt>> processes, List<Loc> locations, Condition condition) {

    /** Header key selecting the default atomicity ({@code atomic} or {@code nonatomic}). */
    public static final String ATOMICITY_KEY = "atomicity";

    /**
     * A memory variable: its unique name, its owner process, its initial value, its element type and
     * its number of elements (every element holds the variable's value; more than one element makes a
     * payload, e.g. {@code long[128]} for 1 KiB).
     */
    public record Variable(String name, int owner, long init, VarType type, int count, SourcePos pos) {
        public Variable(final String name, final int owner, final long init, final SourcePos pos) {
            this(name, owner, init, VarType.LONG, 1, pos);
        }

        /** @return bytes the variable occupies. */
        public long bytes() {
            return (long)type.bytes() * count;
        }

        /** @return whether the variable is one long, the format's default. */
        public boolean plain() {
            return type == VarType.LONG && count == 1;
        }
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

    /** Header key of the window's accumulate_ordering info (MPI-3.1 section 11.7.2): none or a list of rar, raw, war, waw. */
    public static final String ACCUMULATE_ORDERING_KEY = "accumulate_ordering";
    /** The orders accumulate_ordering can name; all four is MPI's default. */
    public static final java.util.Set<String> ACCUMULATE_ORDERS = java.util.Set.of("rar", "raw", "war", "waw");

    /** @return the accumulate orders the window keeps: the header's list, none, or (default) all four. */
    public java.util.Set<String> accumulateOrdering() {
        final String value = info.get(ACCUMULATE_ORDERING_KEY);
        if (value == null) {
            return ACCUMULATE_ORDERS;
        }
        if (value.trim().equals("none")) {
            return java.util.Set.of();
        }
        final java.util.Set<String> orders = new java.util.TreeSet<>();
        for (final String o : value.split(",")) {
            orders.add(o.trim());
        }
        return orders;
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

    /** @return the registers of {@code proc} (targets of its local reads, loads, polls and wait statuses), sorted. */
    public List<String> registersOf(final int proc) {
        final TreeSet<String> registers = new TreeSet<>();
        for (final Stmt s : processes.get(proc)) {
            registers.addAll(s.assignedRegisters());
        }
        return List.copyOf(registers);
    }

    /**
     * @return whether some process opens an access epoch itself (fence, lock, lock_all, post or start). Programs
     *         without any are coreRMA programs: they run inside an implicit lock_all epoch.
     */
    public boolean hasExplicitEpochs() {
        for (final List<Stmt> p : processes) {
            for (final Stmt s : p) {
                if (s instanceof Stmt.Sync sync && (sync.kind() == Stmt.SyncKind.FENCE
                    || sync.kind() == Stmt.SyncKind.LOCK || sync.kind() == Stmt.SyncKind.LOCK_ALL)) {
                    return true;
                }
                if (s instanceof Stmt.Pscw) {
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
