package org.rma4j.litmus.run;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

import org.rma4j.litmus.model.State;

/**
 * Prints a verdict like litmus7 prints a test: the histogram with {@code *>} on states that satisfy
 * the condition, each state marked allowed or FORBIDDEN, the allowed states never observed, the
 * Observation line, and the verdict.
 */
public final class Report {
    private Report() {
    }

    /** Prints {@code verdict}; {@code seconds} is the run time shown in the Time line. */
    public static void print(final Verdict verdict, final RunConfig config, final double seconds,
        final PrintStream out) {
        final String name = verdict.program().name();
        final Histogram h = verdict.histogram();
        final org.rma4j.litmus.syntax.Condition condition = verdict.program().condition();
        out.println("Test " + name + " " + (condition == null ? "Allowed" : switch (condition.quantifier()) {
            case EXISTS -> "Allowed";
            case NOT_EXISTS -> "Forbidden";
            case FORALL -> "Required";
        }));
        out.println("Histogram (" + h.counts().size() + " states, " + h.total() + " runs, "
            + config.mode().name().toLowerCase(java.util.Locale.ROOT) + ")");
        final int width = Long.toString(h.total()).length();
        for (final Map.Entry<State, Long> e : h.counts().entrySet()) {
            final String mark = verdict.satisfies(e.getKey()) ? "*>" : ":>";
            final String status = verdict.allowed().allows(e.getKey()) ? "allowed" : "FORBIDDEN";
            out.printf("%" + width + "d %s%s  %s%n", e.getValue(), mark, e.getKey().format(h.locations()), status);
        }
        final List<State> unseen = verdict.allowedUnseen();
        out.println("Allowed states never observed (" + unseen.size() + " of " + verdict.allowed().states().size() + ")"
            + (unseen.isEmpty() ? "" : ":"));
        for (final State s : unseen) {
            out.println("  " + s.format(verdict.allowed().locations()));
        }
        if (verdict.program().condition() != null) {
            out.println("Condition " + verdict.program().condition() + " is "
                + (verdict.conditionValidated() ? "" : "NOT ") + "validated");
        }
        out.println("Observation " + name + " " + verdict.observation().text() + " " + verdict.positive() + " "
            + verdict.negative());
        final List<State> forbidden = verdict.forbiddenObserved();
        if (forbidden.isEmpty()) {
            out.println("Verdict " + name + " PASS: no forbidden state; " + verdict.allowedObservedCount() + " of "
                + verdict.allowed().states().size() + " allowed states observed");
        } else {
            long runs = 0;
            for (final State s : forbidden) {
                runs += h.counts().get(s);
            }
            out.println("Verdict " + name + " FAIL: " + forbidden.size() + " forbidden state(s) observed in " + runs
                + " run(s)");
        }
        out.printf(java.util.Locale.ROOT, "Time %s %.2f%n", name, seconds);
    }
}
