package org.rma4j.litmus.model;

import org.rma4j.litmus.syntax.Program;

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
        return new Enumerator(ActionGraph.of(program), options).run();
    }

    /** @return the allowed final states over the program's state locations (its {@code locations} directive, if any). */
    public static ModelResult allowed(final Program program, final ModelOptions options) {
        final ModelResult full = allowedFull(program, options);
        return program.locations() == null ? full : full.project(program.stateLocations());
    }
}
