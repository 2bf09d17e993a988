package org.rma4j.litmus.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.rma4j.litmus.model.Model;
import org.rma4j.litmus.model.ModelResult;
import org.rma4j.litmus.model.RuleAnalysis;
import org.rma4j.litmus.model.State;
import org.rma4j.litmus.model.Value;
import org.rma4j.litmus.syntax.Atomicity;
import org.rma4j.litmus.syntax.LitmusException;
import org.rma4j.litmus.syntax.Loc;
import org.rma4j.litmus.syntax.Parser;
import org.rma4j.litmus.syntax.Program;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code litmus model FILE...}: the allowed final states, herd7 style.
 */
@Command(name = "model", mixinStandardHelpOptions = true, description = "Print the final states the model allows (like herd7), the condition's validation and the"
    + " Observation line over allowed states.")
final class ModelCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Litmus files.")
    List<Path> files;

    @Mixin
    ModelOptionsMixin model;

    @Option(names = "--atomicity", description = "Override the files' default atomicity: ${COMPLETION-CANDIDATES}.")
    Atomicity atomicity;

    @Option(names = "--registers", description = "Show registers only (the coreRMA paper's outputs).")
    boolean registers;

    @Option(names = "--rules", description = "Also list the rules the test exercises (dropping them allows more states).")
    boolean rules;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        final PrintWriter out = spec.commandLine().getOut();
        int status = 0;
        for (final Path file : files) {
            try {
                Program program = Parser.parse(file);
                if (atomicity != null && atomicity != Atomicity.DEFAULT) {
                    program = program.withDefaultAtomicity(atomicity);
                }
                print(program, out);
            } catch (final LitmusException e) {
                spec.commandLine().getErr().println(e.getMessage());
                status = LitmusCommand.EXIT_ERROR;
            }
        }
        return status;
    }

    private void print(final Program program, final PrintWriter out) {
        final RuleAnalysis analysis = rules ? RuleAnalysis.of(program, model.options()) : null;
        final ModelResult full = rules ? analysis.allowed() : Model.allowedFull(program, model.options());
        ModelResult result = full;
        List<Loc> shown = program.stateLocations();
        if (registers) {
            final java.util.Set<Loc> needed = new java.util.HashSet<>();
            if (program.condition() != null) {
                program.condition().prop().locations(needed);
            }
            shown = new ArrayList<>(shown.stream().filter(l -> l.isRegister() || needed.contains(l)).toList());
        }
        result = result.project(shown);
        out.println("Test " + program.name() + " (model: " + model.describe() + ", atomicity "
            + program.defaultAtomicity().name().toLowerCase(java.util.Locale.ROOT) + ")");
        out.println("States " + result.states().size());
        result.format().forEach(out::println);
        if (program.condition() != null) {
            final boolean ok = result.conditionHolds(program.condition());
            out.println(ok ? "Ok" : "No");
            long positive = 0;
            for (final State s : result.states()) {
                final ModelResult one = result;
                if (!Boolean.FALSE.equals(
                    program.condition().prop().evaluate(loc -> s.get(one.locations().indexOf(loc)), Value.TOP))) {
                    positive++;
                }
            }
            final long negative = result.states().size() - positive;
            out.println("Condition " + program.condition());
            out.println("Observation " + program.name() + " "
                + (positive == 0 ? "Never" : negative == 0 ? "Always" : "Sometimes") + " " + positive + " " + negative);
        }
        out.println("Executions " + full.executions()
            + (full.truncated() ? " (truncated by --max-executions: the states may be incomplete)" : ""));
        if (rules) {
            out.println("Rules " + (analysis.labels().isEmpty() ? "(none)" : String.join(" ", analysis.labels())));
        }
        out.println();
    }
}
