/**
 * The axiomatic model: coreRMA's rules (Dan et al., OOPSLA 2016, Figure 4) extended with MPI-3's
 * synchronization (Hoefler et al., TOPC 2014, section 3). {@link org.rma4j.litmus.model.ActionGraph}
 * translates a program into actions and program-order hb edges, each tagged with its
 * {@link org.rma4j.litmus.model.Rule}; the enumerator explores reads-from, write serialization, lock
 * order and conflict orientations and returns the allowed final states
 * ({@link org.rma4j.litmus.model.Model#allowed}). Beyond coreRMA: accumulate ordering (AO, MPI-3
 * eq. (26)), PSCW ({@code PscwRules}), notification matching with wildcards ({@code NotifyMatching}),
 * rma4j's direct-access order (DS); {@link org.rma4j.litmus.model.ModelOptions#mpi()} is the MPI
 * standard's allowed set. {@link org.rma4j.litmus.model.ExecutionGraph} draws one execution of an
 * outcome as Graphviz dot, with the rule and hb cycle that forbid it.
 */
package org.rma4j.litmus.model;
