package org.rma4j.litmus.syntax;

/**
 * A location of a final state: a register {@code proc:name} or a memory variable {@code name}
 * (proc = -1).
 */
public record Loc(int proc, String name) implements Comparable<Loc> {
    /** @return a register location. */
    public static Loc register(final int proc, final String name) {
        return new Loc(proc, name);
    }

    /** @return a memory location. */
    public static Loc memory(final String name) {
        return new Loc(-1, name);
    }

    public boolean isRegister() {
        return proc >= 0;
    }

    /** Registers first, by process then name; then memory by name. */
    @Override
    public int compareTo(final Loc other) {
        if (isRegister() != other.isRegister()) {
            return isRegister() ? -1 : 1;
        }
        if (proc != other.proc) {
            return Integer.compare(proc, other.proc);
        }
        return name.compareTo(other.name);
    }

    @Override
    public String toString() {
        return isRegister() ? proc + ":" + name : name;
    }
}
