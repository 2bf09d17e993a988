package org.rma4j.litmus.gen;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

import org.rma4j.litmus.model.ModelOptions;
import org.rma4j.litmus.model.RuleAnalysis;
import org.rma4j.litmus.model.State;
import org.rma4j.litmus.model.Value;
import org.rma4j.litmus.syntax.AccOp;
import org.rma4j.litmus.syntax.Atomicity;
import org.rma4j.litmus.syntax.Checker;
import org.rma4j.litmus.syntax.Condition;
import org.rma4j.litmus.syntax.Expr;
import org.rma4j.litmus.syntax.LitmusException;
import org.rma4j.litmus.syntax.Loc;
import org.rma4j.litmus.syntax.Program;
import org.rma4j.litmus.syntax.SourcePos;
import org.rma4j.litmus.syntax.Stmt;
import org.rma4j.litmus.syntax.VarType;

/**
 * Generates every litmus program up to a bound (coreRMA section 6.1, with exhaustive enumeration in
 * place of Alloy): for each process count, every choice of 1..maxStatements statements per process
 * from the alphabet's instances, deduplicated up to renaming, checked by {@link Checker}, and (by
 * default) kept only if it exercises some rule ({@link RuleAnalysis}), the analogue of the paper's
 * pivot. Its condition is {@code ~exists} of a state that dropping the first exercised rule would allow.
 *
 * <p>Renaming: registers are {@code r0, r1, ...} per process in order of appearance, written values
 * 10, 20, ... in order of appearance and variables are named after their owner, so two programs are
 * the same up to renaming exactly when a permutation of the processes maps one onto the other; the
 * generator keeps a program only if the identity is the lexicographically least permutation.
 */
public final class Generator {
    private static final String NAMES = "XYZWUVTSRQ";
    /** Reads a generated poll makes at most (it waits for 10, the first value a program writes). */
    static final long POLL_BOUND = 100;

    /**
     * @param minProcs       smallest process count.
     * @param maxProcs       largest process count.
     * @param maxStatements  statements per process, at least 1.
     * @param alphabet       statement kinds.
     * @param varsPerProc    variables each process owns.
     * @param interesting    keep only programs that exercise a rule.
     * @param maxTests       stop after this many kept programs (0: no limit).
     * @param options        the model the rules are analysed against.
     * @param prefix         test name prefix.
     * @param type           the variables' element type.
     * @param elements       elements per variable (more than 1: payloads).
     * @param required       keep only programs with a statement of one of these kinds (empty: any).
     */
    public record Config(int minProcs, int maxProcs, int maxStatements, Set<Letter> alphabet, int varsPerProc,
        boolean interesting, int maxTests, ModelOptions options, String prefix, VarType type, int elements,
        Set<Letter> required) {
        /** Variables of one long each. */
        public Config(final int minProcs, final int maxProcs, final int maxStatements, final Set<Letter> alphabet,
            final int varsPerProc, final boolean interesting, final int maxTests, final ModelOptions options,
            final String prefix) {
            this(minProcs, maxProcs, maxStatements, alphabet, varsPerProc, interesting, maxTests, options, prefix,
                VarType.LONG, 1, Set.of());
        }

        public Config {
            if (elements < 1) {
                throw new IllegalArgumentException("a variable has at least 1 element, not " + elements);
            }
            if (minProcs < 1 || maxProcs < minProcs || maxProcs > NAMES.length() || maxStatements < 1
                || varsPerProc < 1) {
                throw new IllegalArgumentException("bad bounds: processes " + minProcs + ".." + maxProcs
                    + ", statements " + maxStatements + ", variables per process " + varsPerProc);
            }
            alphabet = Set.copyOf(alphabet);
            required = Set.copyOf(required);
        }
    }

    /** Counts of one generation. */
    public record Stats(long candidates, long duplicates, long invalid, long uninteresting, long kept) {
    }

    /** A kept program and its analysis. */
    public record Generated(Program program, RuleAnalysis analysis) {
    }

    private final Config config;
    private long candidates;
    private long duplicates;
    private long invalid;
    private long uninteresting;
    private long kept;

    public Generator(final Config config) {
        this.config = config;
    }

    /**
     * Generates and hands each kept program to {@code sink}.
     *
     * @param progress called every 1000 candidates with the number seen so far, or null.
     */
    public Stats generate(final Consumer<Generated> sink, final LongConsumer progress) {
        for (int procs = config.minProcs(); procs <= config.maxProcs() && !full(); procs++) {
            final List<Instr> instances = instances(procs);
            final List<List<Instr>> sequences = new ArrayList<>();
            sequences(instances, new ArrayList<>(), sequences);
            final int[] choice = new int[procs];
            final int[][] permutations = Permutations.of(procs);
            do {
                candidates++;
                if (progress != null && candidates % 1000 == 0) {
                    progress.accept(candidates);
                }
                final List<List<Instr>> program = new ArrayList<>();
                for (final int c : choice) {
                    program.add(sequences.get(c));
                }
                if (!canonical(program, permutations)) {
                    duplicates++;
                    continue;
                }
                consider(program, sink);
            } while (!full() && next(choice, sequences.size()));
        }
        return new Stats(candidates, duplicates, invalid, uninteresting, kept);
    }

    private boolean full() {
        return config.maxTests() > 0 && kept >= config.maxTests();
    }

    private static boolean next(final int[] choice, final int radix) {
        for (int i = choice.length - 1; i >= 0; i--) {
            if (++choice[i] < radix) {
                return true;
            }
            choice[i] = 0;
        }
        return false;
    }

    private void sequences(final List<Instr> instances, final List<Instr> prefix, final List<List<Instr>> out) {
        if (!prefix.isEmpty()) {
            out.add(List.copyOf(prefix));
        }
        if (prefix.size() == config.maxStatements()) {
            return;
        }
        for (final Instr i : instances) {
            prefix.add(i);
            sequences(instances, prefix, out);
            prefix.removeLast();
        }
    }

    /** Statement instances of a process; local variable indices are the process's own, remote ones absolute. */
    private List<Instr> instances(final int procs) {
        final int v = config.varsPerProc();
        final List<Instr> out = new ArrayList<>();
        for (final Letter letter : Letter.values()) {
            if (!config.alphabet().contains(letter)) {
                continue;
            }
            switch (letter) {
                case READ, WRITE -> {
                    for (int a = 0; a < v; a++) {
                        out.add(new Instr(letter, -1, -1, a, -1, -1));
                    }
                }
                case PUT, GET, ACC, FOP, PUT_NOTIFY, GET_NOTIFY -> remote(out, letter, procs, 1);
                case LOAD, STORE, POLL -> {
                    for (int q = 0; q < procs; q++) {
                        for (int j = 0; j < v; j++) {
                            out.add(new Instr(letter, q, j, -1, -1, -1));
                        }
                    }
                }
                case WAIT, POST, START -> {
                    for (int q = 0; q < procs; q++) {
                        out.add(new Instr(letter, q, -1, -1, -1, -1));
                    }
                }
                case WAIT_ANY, COMPLETE, WIN_WAIT, WIN_TEST, LOCK_ALL, UNLOCK_ALL ->
                    out.add(new Instr(letter, -1, -1, -1, -1, -1));
                case RGA -> remote(out, letter, procs, 2);
                case CAS -> remote(out, letter, procs, 3);
                case FLUSH, FLUSH_LOCAL -> {
                    for (int q = 0; q < procs; q++) {
                        out.add(new Instr(letter, q, -1, -1, -1, -1));
                    }
                }
                case FLUSH_ALL, WIN_SYNC, BARRIER, FENCE -> out.add(new Instr(letter, -1, -1, -1, -1, -1));
            }
        }
        return out;
    }

    private void remote(final List<Instr> out, final Letter letter, final int procs, final int locals) {
        final int v = config.varsPerProc();
        for (int q = 0; q < procs; q++) {
            for (int j = 0; j < v; j++) {
                for (int a = 0; a < v; a++) {
                    for (int b = 0; b < (locals > 1 ? v : 1); b++) {
                        for (int c = 0; c < (locals > 2 ? v : 1); c++) {
                            out.add(new Instr(letter, q, j, a, locals > 1 ? b : -1, locals > 2 ? c : -1));
                        }
                    }
                }
            }
        }
    }

    /** @return whether no permutation of the processes gives a smaller key than the identity. */
    static boolean canonical(final List<List<Instr>> program, final int[][] permutations) {
        final String identity = key(program, permutations[0]);
        for (int i = 1; i < permutations.length; i++) {
            if (key(program, permutations[i]).compareTo(identity) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Key of the program with old process p renamed perm[p]. */
    static String key(final List<List<Instr>> program, final int[] perm) {
        final List<Instr>[] renamed = Permutations.apply(program, perm);
        final StringBuilder out = new StringBuilder();
        for (final List<Instr> process : renamed) {
            for (final Instr i : process) {
                i.permute(perm).key(out);
            }
            out.append('|');
        }
        return out.toString();
    }

    private void consider(final List<List<Instr>> instrs, final Consumer<Generated> sink) {
        final boolean anyRemote = instrs.stream().flatMap(List::stream).anyMatch(i -> i.letter().remote());
        if (!config.required().isEmpty()
            && instrs.stream().flatMap(List::stream).noneMatch(i -> config.required().contains(i.letter()))) {
            uninteresting++;
            return;
        }
        Program program = build(instrs, "tmp");
        try {
            Checker.check(program);
        } catch (final LitmusException e) {
            invalid++;
            return;
        }
        final RuleAnalysis analysis = RuleAnalysis.of(program, config.options());
        if (analysis.allowed().states().isEmpty()) {
            // Its synchronization cannot complete (a wait before what it waits for, crossed PSCW epochs).
            invalid++;
            return;
        }
        if (config.interesting() && (analysis.exercised().isEmpty() || !anyRemote)) {
            uninteresting++;
            return;
        }
        kept++;
        final String name = String.format("%s-%dp-%05d", config.prefix(), instrs.size(), kept);
        program = new Program(name, doc(instrs, analysis), program.info(), program.variables(), program.processes(),
            null, condition(program, analysis));
        sink.accept(new Generated(program, analysis));
    }

    private String doc(final List<List<Instr>> instrs, final RuleAnalysis analysis) {
        final int statements = instrs.stream().mapToInt(List::size).sum();
        return "generated: " + instrs.size() + " process(es), " + statements + " statement(s); exercises "
            + (analysis.labels().isEmpty() ? "no rule" : String.join(" ", analysis.labels()))
            + (analysis.exercised().isEmpty()
                ? ""
                : "; the condition is a state only dropping " + analysis.exercised().getFirst().label() + " allows");
    }

    private static Condition condition(final Program program, final RuleAnalysis analysis) {
        final List<Loc> locations = analysis.allowed().locations();
        final boolean witness = !analysis.exercised().isEmpty();
        final State state = witness ? analysis.witnesses().getFirst() : analysis.allowed().states().getFirst();
        Condition.Prop prop = null;
        for (int i = 0; i < locations.size(); i++) {
            if (state.get(i) == Value.TOP) {
                continue;
            }
            final Condition.Prop eq = new Condition.Eq(locations.get(i), state.get(i));
            prop = prop == null ? eq : new Condition.And(prop, eq);
        }
        return new Condition(witness ? Condition.Quantifier.NOT_EXISTS : Condition.Quantifier.EXISTS,
            prop == null ? new Condition.Const(true) : prop);
    }

    /** Names the instructions: variables after their owners, registers r0.., values 10, 20, ... */
    Program build(final List<List<Instr>> instrs, final String name) {
        final int procs = instrs.size();
        final List<Program.Variable> variables = variables(procs);
        final List<List<Stmt>> processes = new ArrayList<>();
        int value = 0;
        for (int p = 0; p < procs; p++) {
            final List<Stmt> stmts = new ArrayList<>();
            int register = 0;
            for (final Instr i : instrs.get(p)) {
                final SourcePos pos = SourcePos.NONE;
                final Atomicity d = Atomicity.DEFAULT;
                stmts.add(switch (i.letter()) {
                    case READ -> new Stmt.LocalRead("r" + register++, var(p, i.a()), d, pos);
                    case WRITE -> new Stmt.LocalWrite(var(p, i.a()), new Expr.Const(10L * ++value), d, pos);
                    case PUT -> new Stmt.Put(var(i.proc(), i.var()), var(p, i.a()), d, pos);
                    case GET -> new Stmt.Get(var(p, i.a()), var(i.proc(), i.var()), d, pos);
                    case RGA -> new Stmt.Rga(var(p, i.a()), var(i.proc(), i.var()), var(p, i.b()), AccOp.SUM, d, pos);
                    case CAS ->
                        new Stmt.Cas(var(p, i.a()), var(i.proc(), i.var()), var(p, i.b()), var(p, i.c()), d, pos);
                    case FLUSH -> new Stmt.Sync(Stmt.SyncKind.FLUSH, i.proc(), true, pos);
                    case FLUSH_LOCAL -> new Stmt.Sync(Stmt.SyncKind.FLUSH_LOCAL, i.proc(), true, pos);
                    case FLUSH_ALL -> new Stmt.Sync(Stmt.SyncKind.FLUSH_ALL, -1, true, pos);
                    case WIN_SYNC -> new Stmt.Sync(Stmt.SyncKind.WIN_SYNC, -1, true, pos);
                    case BARRIER -> new Stmt.Sync(Stmt.SyncKind.BARRIER, -1, true, pos);
                    case FENCE -> new Stmt.Sync(Stmt.SyncKind.FENCE, -1, true, pos);
                    case ACC -> new Stmt.Acc(var(i.proc(), i.var()), var(p, i.a()), AccOp.REPLACE, d, pos);
                    case FOP -> new Stmt.Rga(var(p, i.a()), var(i.proc(), i.var()), var(p, i.a()), AccOp.NO_OP, d, pos);
                    case LOAD -> new Stmt.Load("r" + register++, var(i.proc(), i.var()), d, pos);
                    case STORE -> new Stmt.Store(var(i.proc(), i.var()), new Expr.Const(10L * ++value), d, pos);
                    case POLL -> new Stmt.Poll("r" + register++, var(i.proc(), i.var()), 10, POLL_BOUND, d, pos);
                    case PUT_NOTIFY -> new Stmt.PutNotify(var(i.proc(), i.var()), var(p, i.a()), 1, d, pos);
                    case GET_NOTIFY -> new Stmt.GetNotify(var(p, i.a()), var(i.proc(), i.var()), 1, d, pos);
                    case WAIT -> new Stmt.Wait(i.proc(), 1, 1, pos);
                    case WAIT_ANY -> new Stmt.Wait(Stmt.ANY, Stmt.ANY, 1, "r" + register++, null, pos);
                    case POST -> new Stmt.Pscw(Stmt.PscwKind.POST, List.of(i.proc()), pos);
                    case START -> new Stmt.Pscw(Stmt.PscwKind.START, List.of(i.proc()), pos);
                    case COMPLETE -> new Stmt.Pscw(Stmt.PscwKind.COMPLETE, List.of(), pos);
                    case WIN_WAIT -> new Stmt.Pscw(Stmt.PscwKind.WAIT, List.of(), pos);
                    case WIN_TEST -> new Stmt.Pscw(Stmt.PscwKind.TEST, List.of(), pos);
                    case LOCK_ALL -> new Stmt.Sync(Stmt.SyncKind.LOCK_ALL, -1, true, pos);
                    case UNLOCK_ALL -> new Stmt.Sync(Stmt.SyncKind.UNLOCK_ALL, -1, true, pos);
                });
            }
            processes.add(stmts);
        }
        return new Program(name, "", Map.of(), variables, processes, null, null);
    }

    /** @return the variables each of {@code procs} processes owns, with initial values 1, 2, ... */
    private List<Program.Variable> variables(final int procs) {
        final int v = config.varsPerProc();
        final List<Program.Variable> variables = new ArrayList<>();
        for (int p = 0; p < procs; p++) {
            for (int i = 0; i < v; i++) {
                variables.add(new Program.Variable(var(p, i), p, p * v + i + 1, config.type(), config.elements(),
                    SourcePos.NONE));
            }
        }
        return variables;
    }

    private String var(final int proc, final int index) {
        return NAMES.charAt(proc) + (index == 0 ? "" : Integer.toString(index));
    }
}
