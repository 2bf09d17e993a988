package org.rma4j.litmus.cli;

import java.util.List;

import org.rma4j.litmus.model.ModelOptions;
import org.rma4j.litmus.model.Rule;
import picocli.CommandLine.Option;

/**
 * The model options every subcommand shares.
 */
final class ModelOptionsMixin {
    @Option(names = "--no-ir", description = "Drop in-order routing (rule IR), as the MPI standard promises nothing"
        + " about put/get order; default: the stock coreRMA model with IR (rma4j keeps program order).")
    boolean noIr;

    @Option(names = "--mpi", description = "The MPI standard's allowed set: drop IR, R1 and DS (coreRMA's and rma4j's"
        + " guarantees beyond MPI) and make only accumulates atomic (MPI-3.1 section 11.7.1).")
    boolean mpi;

    @Option(names = "--without", split = ",", paramLabel = "RULE", description = "Drop these rules from the model (e.g. R1,PG,LX); for experiments.")
    List<String> without = List.of();

    @Option(names = "--max-executions", defaultValue = "0", paramLabel = "N", description = "Stop the model after N consistent executions (0: no limit); a truncated result says so.")
    long maxExecutions;

    ModelOptions options() {
        ModelOptions options = new ModelOptions(java.util.Set.of(), maxExecutions).withIr(!noIr);
        if (mpi) {
            options = options.withMpi();
        }
        for (final String label : without) {
            final Rule rule = Rule.byLabel(label);
            if (rule == null) {
                throw new IllegalArgumentException("unknown rule " + label);
            }
            options = options.without(rule);
        }
        return options;
    }

    String describe() {
        if (mpi) {
            return "MPI (without IR, R1, DS; only accumulates atomic)"
                + (without.isEmpty() ? "" : " without " + String.join(",", without));
        }
        return noIr || !without.isEmpty()
            ? "stock" + (noIr ? " without IR" : "") + (without.isEmpty() ? "" : " without " + String.join(",", without))
            : "stock (IR)";
    }
}
