package org.rma4j.litmus.model;

import org.rma4j.litmus.syntax.Atomicity;
import org.rma4j.litmus.syntax.Program;
import org.rma4j.litmus.syntax.Stmt;

/**
 * The model's entry point: the allowed final states of a litmus program.
 */
public final class Model {
    private Model() {
    }

    /**
     * @return every allowed final state over all registers and variables
     *         ({@link Program#stateLocations()} without a {@code locations} directive).
     */
    public static ModelResult allowedFull(final Program program, final ModelOptions options) {
        return Enumerator.runAll(ActionGraph.all(view(program, options)), options);
    }

    /**
     * @return the program as the options see it: with {@link ModelOptions#mpiAtomicity()}, accumulates
     *         (acc, rga, cas) atomic and every other memory statement non-atomic (MPI-3.1 section 11.7.1).
     */
    public static Program view(final Program program, final ModelOptions options) {
        if (!options.mpiAtomicity()) {
            return program;
        }
        final java.util.List<java.util.List<Stmt>> processes = new java.util.ArrayList<>();
        for (final java.util.List<Stmt> stmts : program.processes()) {
            final java.util.List<Stmt> copy = new java.util.ArrayList<>();
            for (final Stmt s : stmts) {
                copy.add(s instanceof Stmt.Memory m
                    ? m.withAtomicity(s instanceof Stmt.Acc || s instanceof Stmt.Rga || s instanceof Stmt.Cas
                        ? Atomicity.ATOMIC
                        : Atomicity.NONATOMIC)
                    : s);
            }
            processes.add(copy);
        }
        return new Program(program.name(), program.doc(), program.info(), program.variables(), processes,
            program.locations(), program.condition());
    }

    /** @return the allowed final states over the program's state locations (its {@code locations} directive, if any). */
    public static ModelResult allowed(final Program program, final ModelOptions options) {
        final ModelResult full = allowedFull(program, options);
        return program.locations() == null ? full : full.project(program.stateLocations());
    }
}
