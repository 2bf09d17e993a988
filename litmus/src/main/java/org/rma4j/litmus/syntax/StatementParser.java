package org.rma4j.litmus.syntax;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses one statement of process {@code proc}. A name declared in the init block is a variable,
 * any other name on the left of {@code =} is a register of the process.
 */
final class StatementParser {
    private static final Set<String> CALLS = Set.of("put", "get", "rga", "get_accumulate", "cas", "compare_and_swap",
        "put_notify", "wait", "notify_wait", "acc", "accumulate", "get_notify", "load", "store", "poll");
    /** Calls whose result goes to registers rather than to a variable. */
    private static final Set<String> REGISTER_CALLS = Set.of("load", "poll", "wait", "notify_wait");
    private static final Set<String> MODIFIERS = Set.of("na", "nonatomic", "at", "atomic");

    private final TokenCursor in;
    private final Map<String, Program.Variable> variables;
    private final int processCount;
    private final int proc;

    StatementParser(final TokenCursor in, final Map<String, Program.Variable> variables, final int processCount,
        final int proc) {
        this.in = in;
        this.variables = variables;
        this.processCount = processCount;
        this.proc = proc;
    }

    static boolean isKeyword(final String name) {
        return CALLS.contains(name) || Stmt.SyncKind.byName(name) != null || MODIFIERS.contains(name)
            || Stmt.PscwKind.byName(name) != null || name.equals("any") || Parser.isProcessName(name);
    }

    Stmt statement(final Token.Kind... terminators) {
        Atomicity atomicity = Atomicity.DEFAULT;
        final Token first = in.peek();
        if (first.kind() == Token.Kind.IDENT && MODIFIERS.contains(first.text())
            && in.peekAt(1).kind() == Token.Kind.IDENT) {
            in.next();
            atomicity = first.text().startsWith("n") ? Atomicity.NONATOMIC : Atomicity.ATOMIC;
        }
        final Token head = in.expect(Token.Kind.IDENT, "a statement");
        final Stmt stmt;
        if (in.peek().kind() == Token.Kind.COMMA && in.peekAt(1).kind() == Token.Kind.IDENT
            && in.peekAt(2).kind() == Token.Kind.EQ) {
            in.next();
            final Token second = in.next();
            in.next();
            final Token call = in.expect(Token.Kind.IDENT, "wait(...) after 'src, tag ='");
            if (!call.is("wait") && !call.is("notify_wait")) {
                throw new LitmusException(call.pos(),
                    "only wait(...) assigns two registers (the matched source and tag)");
            }
            register(head);
            register(second);
            stmt = waitCall(call, head.text(), second.text());
        } else if (in.peek().kind() == Token.Kind.EQ) {
            in.next();
            stmt = assignment(head, atomicity);
        } else {
            stmt = call(head, atomicity);
        }
        final Token after = in.peek();
        for (final Token.Kind t : terminators) {
            if (after.kind() == t) {
                return stmt;
            }
        }
        throw new LitmusException(after.pos(),
            "expected " + describe(terminators) + " after the statement, found " + after.describe());
    }

    private static String describe(final Token.Kind... kinds) {
        final List<String> names = new ArrayList<>();
        for (final Token.Kind k : kinds) {
            names.add(k.description());
        }
        return String.join(" or ", names);
    }

    private void register(final Token t) {
        if (variables.containsKey(t.text())) {
            throw new LitmusException(t.pos(), t.text() + " is a variable; the status of a wait goes to registers");
        }
        if (isKeyword(t.text())) {
            throw new LitmusException(t.pos(), "'" + t.text() + "' is a keyword and cannot be a register");
        }
    }

    private Stmt assignment(final Token lhs, final Atomicity atomicity) {
        final Program.Variable lhsVar = variables.get(lhs.text());
        final Token rhs = in.peek();
        if (rhs.kind() == Token.Kind.IDENT && REGISTER_CALLS.contains(rhs.text())
            && in.peekAt(1).kind() == Token.Kind.LPAREN) {
            return registerCall(lhs, rhs, atomicity);
        }
        if (rhs.kind() == Token.Kind.IDENT && CALLS.contains(rhs.text()) && in.peekAt(1).kind() == Token.Kind.LPAREN) {
            if (lhsVar == null) {
                throw new LitmusException(lhs.pos(), "the result of " + rhs.text() + " goes to a variable of process "
                    + proc + ", but " + lhs.text() + " is not a declared variable");
            }
            checkLocal(lhs, lhsVar, "the result of " + rhs.text());
            in.next();
            return fetchingCall(lhs.text(), rhs, atomicity);
        }
        if (lhsVar == null) {
            return localRead(lhs, atomicity);
        }
        checkLocal(lhs, lhsVar, "a local write");
        return new Stmt.LocalWrite(lhs.text(), expression(), atomicity, lhs.pos());
    }

    /** {@code reg = load(...)}, {@code reg = poll(...)} or {@code reg = wait(...)}, the call token not yet consumed. */
    private Stmt registerCall(final Token lhs, final Token rhs, final Atomicity atomicity) {
        register(lhs);
        in.next();
        if (rhs.is("wait") || rhs.is("notify_wait")) {
            if (atomicity != Atomicity.DEFAULT) {
                throw new LitmusException(lhs.pos(), "an atomicity modifier applies to memory statements, not to wait");
            }
            return waitCall(rhs, lhs.text(), null);
        }
        in.expect(Token.Kind.LPAREN, "'(' after " + rhs.text());
        final String variable = remoteVariable();
        final Stmt stmt = rhs.is("load")
            ? new Stmt.Load(lhs.text(), variable, atomicity, lhs.pos())
            : poll(lhs, rhs, variable, atomicity);
        in.expect(Token.Kind.RPAREN, "')' closing " + rhs.text());
        return stmt;
    }

    /** The value and optional bound of {@code reg = poll(var, value[, bound])}, after the variable. */
    private Stmt poll(final Token lhs, final Token call, final String variable, final Atomicity atomicity) {
        comma(call);
        final long value = signedNumber();
        long bound = Stmt.Poll.DEFAULT_BOUND;
        if (in.accept(Token.Kind.COMMA)) {
            final Token b = in.expect(Token.Kind.INT, "the bound of the loop (reads at most)");
            bound = TokenCursor.parseValue(b, false);
            if (bound < 1) {
                throw new LitmusException(b.pos(), "a poll reads at least once");
            }
        }
        return new Stmt.Poll(lhs.text(), variable, value, bound, atomicity, lhs.pos());
    }

    /** {@code reg = VAR}: a local read of a variable of this process into a register. */
    private Stmt localRead(final Token lhs, final Atomicity atomicity) {
        if (isKeyword(lhs.text())) {
            throw new LitmusException(lhs.pos(), "'" + lhs.text() + "' is a keyword and cannot be a register");
        }
        final Token var = in.expect(Token.Kind.IDENT, "a variable to read into register " + lhs.text());
        final Program.Variable v = variables.get(var.text());
        if (v == null) {
            throw new LitmusException(var.pos(), "unknown variable " + var.text() + " (a register is assigned only"
                + " by a local read 'reg = VAR' of a declared variable)");
        }
        checkLocal(var, v, "a local read");
        return new Stmt.LocalRead(lhs.text(), var.text(), atomicity, lhs.pos());
    }

    private Expr expression() {
        Expr left = term();
        while (in.peek().kind() == Token.Kind.PLUS || in.peek().kind() == Token.Kind.MINUS) {
            final boolean plus = in.next().kind() == Token.Kind.PLUS;
            left = new Expr.Binary(left, plus, term());
        }
        return left;
    }

    private Expr term() {
        final Token t = in.next();
        if (t.kind() == Token.Kind.INT) {
            return new Expr.Const(TokenCursor.parseValue(t, false));
        }
        if (t.kind() == Token.Kind.MINUS && in.peek().kind() == Token.Kind.INT) {
            return new Expr.Const(TokenCursor.parseValue(in.next(), true));
        }
        if (t.kind() == Token.Kind.IDENT) {
            if (variables.containsKey(t.text())) {
                throw new LitmusException(t.pos(), "variable " + t.text() + " in an expression: read it into a register"
                    + " first (expressions use numbers and registers)");
            }
            return new Expr.Reg(t.text());
        }
        throw new LitmusException(t.pos(), "expected a number or a register, found " + t.describe());
    }

    private Stmt fetchingCall(final String dest, final Token call, final Atomicity atomicity) {
        in.expect(Token.Kind.LPAREN, "'(' after " + call.text());
        final String target = remoteVariable();
        final Stmt stmt = switch (call.text()) {
            case "get" -> new Stmt.Get(dest, target, atomicity, call.pos());
            case "get_notify" -> {
                comma(call);
                yield new Stmt.GetNotify(dest, target, tag(), atomicity, call.pos());
            }
            case "rga", "get_accumulate" -> {
                comma(call);
                final String operand = localVariable("the operand of " + call.text());
                final AccOp op = in.accept(Token.Kind.COMMA) ? op() : AccOp.SUM;
                yield new Stmt.Rga(dest, target, operand, op, atomicity, call.pos());
            }
            case "cas", "compare_and_swap" -> {
                comma(call);
                final String compare = localVariable("the compare operand of " + call.text());
                comma(call);
                final String swap = localVariable("the swap operand of " + call.text());
                yield new Stmt.Cas(dest, target, compare, swap, atomicity, call.pos());
            }
            default -> throw new LitmusException(call.pos(),
                call.text() + " returns no value; write it without '" + dest + " ='");
        };
        in.expect(Token.Kind.RPAREN, "')' closing " + call.text());
        return stmt;
    }

    private Stmt call(final Token head, final Atomicity atomicity) {
        final String name = head.text();
        if (name.equals("put") || name.equals("put_notify")) {
            return put(head, atomicity);
        }
        if (name.equals("acc") || name.equals("accumulate")) {
            return accumulate(head, atomicity);
        }
        if (name.equals("store")) {
            return store(head, atomicity);
        }
        if (atomicity != Atomicity.DEFAULT) {
            throw new LitmusException(head.pos(), "an atomicity modifier applies to memory statements, not to " + name);
        }
        if (name.equals("wait") || name.equals("notify_wait")) {
            return waitCall(head, null, null);
        }
        final Stmt.PscwKind pscw = Stmt.PscwKind.byName(name);
        if (pscw != null) {
            return pscw(head, pscw);
        }
        final Stmt.SyncKind kind = Stmt.SyncKind.byName(name);
        if (kind == null) {
            if (in.peek().kind() == Token.Kind.LPAREN) {
                throw new LitmusException(head.pos(), "unknown statement " + head.describe());
            }
            throw new LitmusException(in.peek().pos(), "expected '=' after " + head.describe() + " (or a statement such"
                + " as put(...), flush(1), fence), found " + in.peek().describe());
        }
        return sync(head, kind);
    }

    /** {@code put(target, source)} or {@code put_notify(target, source, tag)}. */
    private Stmt put(final Token head, final Atomicity atomicity) {
        final String name = head.text();
        in.expect(Token.Kind.LPAREN, "'(' after " + name);
        final String target = remoteVariable();
        comma(head);
        final String source = localVariable("the source of " + name);
        Stmt stmt = new Stmt.Put(target, source, atomicity, head.pos());
        if (name.equals("put_notify")) {
            comma(head);
            stmt = new Stmt.PutNotify(target, source, tag(), atomicity, head.pos());
        }
        in.expect(Token.Kind.RPAREN, "')' closing " + name);
        return stmt;
    }

    /** {@code acc(target, operand[, op])}. */
    private Stmt accumulate(final Token head, final Atomicity atomicity) {
        final String name = head.text();
        in.expect(Token.Kind.LPAREN, "'(' after " + name);
        final String target = remoteVariable();
        comma(head);
        final String operand = localVariable("the operand of " + name);
        final AccOp op = in.accept(Token.Kind.COMMA) ? op() : AccOp.SUM;
        in.expect(Token.Kind.RPAREN, "')' closing " + name);
        return new Stmt.Acc(target, operand, op, atomicity, head.pos());
    }

    /** {@code store(var, expr)}. */
    private Stmt store(final Token head, final Atomicity atomicity) {
        final String name = head.text();
        in.expect(Token.Kind.LPAREN, "'(' after " + name);
        final String target = remoteVariable();
        comma(head);
        final Expr value = expression();
        in.expect(Token.Kind.RPAREN, "')' closing " + name);
        return new Stmt.Store(target, value, atomicity, head.pos());
    }

    /** post / start with their group (neither the caller nor a process twice), or complete / win_wait / win_test. */
    private Stmt pscw(final Token head, final Stmt.PscwKind pscw) {
        final String name = head.text();
        final List<Integer> group = new ArrayList<>();
        if (pscw.hasGroup()) {
            in.expect(Token.Kind.LPAREN, "'(' and the processes of " + name);
            do {
                final Token at = in.peek();
                final int member = process();
                if (member == proc || group.contains(member)) {
                    throw new LitmusException(at.pos(), "the group of " + name + " names process " + member
                        + (member == proc ? ", the caller itself" : " twice"));
                }
                group.add(member);
            } while (in.accept(Token.Kind.COMMA));
            in.expect(Token.Kind.RPAREN, "')' closing " + name);
        } else if (in.accept(Token.Kind.LPAREN)) {
            in.expect(Token.Kind.RPAREN, "')': " + name + " takes no argument");
        }
        return new Stmt.Pscw(pscw, group, head.pos());
    }

    /** A synchronization call: its target if it has one ({@code lock} also its type), or no argument. */
    private Stmt sync(final Token head, final Stmt.SyncKind kind) {
        final String name = head.text();
        int target = -1;
        boolean exclusive = true;
        if (kind.hasTarget()) {
            in.expect(Token.Kind.LPAREN, "'(' and a target process after " + name);
            target = process();
            if (kind == Stmt.SyncKind.LOCK && in.accept(Token.Kind.COMMA)) {
                final Token type = in.expect(Token.Kind.IDENT, "'shared' or 'exclusive'");
                if (!type.is("shared") && !type.is("exclusive")) {
                    throw new LitmusException(type.pos(),
                        "lock type must be 'shared' or 'exclusive', found " + type.describe());
                }
                exclusive = type.is("exclusive");
            }
            in.expect(Token.Kind.RPAREN, "')' closing " + name);
        } else if (in.accept(Token.Kind.LPAREN)) {
            in.expect(Token.Kind.RPAREN, "')': " + name + " takes no argument");
        }
        return new Stmt.Sync(kind, target, exclusive, head.pos());
    }

    /** {@code wait(source|any, tag|any[, count])}, the call token consumed. */
    private Stmt waitCall(final Token call, final String sourceRegister, final String tagRegister) {
        in.expect(Token.Kind.LPAREN, "'(' after " + call.text());
        final int source = in.peek().is("any") ? any() : process();
        comma(call);
        final int tag = in.peek().is("any") ? any() : tag();
        int count = 1;
        if (in.accept(Token.Kind.COMMA)) {
            final Token c = in.expect(Token.Kind.INT, "the number of notifications");
            count = (int)Math.min(Integer.MAX_VALUE, TokenCursor.parseValue(c, false));
            if (count < 1) {
                throw new LitmusException(c.pos(), "a wait needs at least 1 notification");
            }
        }
        in.expect(Token.Kind.RPAREN, "')' closing " + call.text());
        return new Stmt.Wait(source, tag, count, sourceRegister, tagRegister, call.pos());
    }

    private int any() {
        in.next();
        return Stmt.ANY;
    }

    private AccOp op() {
        final Token opName = in.expect(Token.Kind.IDENT, "an accumulate op (sum, max, replace, ...)");
        final AccOp op = AccOp.byName(opName.text());
        if (op == null) {
            throw new LitmusException(opName.pos(), "unknown accumulate op " + opName.describe()
                + " (sum, prod, min, max, land, lor, lxor, band, bor, bxor, replace, no_op)");
        }
        return op;
    }

    private long signedNumber() {
        final boolean negative = in.accept(Token.Kind.MINUS);
        return TokenCursor.parseValue(in.expect(Token.Kind.INT, "a number"), negative);
    }

    private void comma(final Token call) {
        in.expect(Token.Kind.COMMA, "',' between the arguments of " + call.text());
    }

    private int tag() {
        final Token t = in.expect(Token.Kind.INT, "a tag (a number >= 0)");
        return (int)Math.min(Integer.MAX_VALUE, TokenCursor.parseValue(t, false));
    }

    private int process() {
        final Token t = in.next();
        final int p;
        if (t.kind() == Token.Kind.INT) {
            p = Integer.parseInt(t.text());
        } else if (t.kind() == Token.Kind.IDENT && Parser.isProcessName(t.text())) {
            p = Integer.parseInt(t.text().substring(1));
        } else {
            throw new LitmusException(t.pos(), "expected a process number, found " + t.describe());
        }
        if (p >= processCount) {
            throw new LitmusException(t.pos(),
                "process " + p + " does not exist (the test has " + processCount + " process(es))");
        }
        return p;
    }

    /** {@code X} or {@code X@p}: any declared variable; an explicit owner must be the real one. */
    private String remoteVariable() {
        final Token t = in.expect(Token.Kind.IDENT, "a variable");
        final Program.Variable v = variables.get(t.text());
        if (v == null) {
            throw new LitmusException(t.pos(), "unknown variable " + t.text());
        }
        if (in.accept(Token.Kind.AT)) {
            final Token ownerToken = in.peek();
            final int owner = process();
            if (owner != v.owner()) {
                throw new LitmusException(ownerToken.pos(),
                    "variable " + t.text() + " belongs to process " + v.owner() + ", not " + owner);
            }
        }
        return t.text();
    }

    private String localVariable(final String role) {
        final Token t = in.expect(Token.Kind.IDENT, "a variable (" + role + ")");
        final Program.Variable v = variables.get(t.text());
        if (v == null) {
            throw new LitmusException(t.pos(), "unknown variable " + t.text() + " (" + role + ")");
        }
        checkLocal(t, v, role);
        if (in.accept(Token.Kind.AT)) {
            final Token ownerToken = in.peek();
            if (process() != proc) {
                throw new LitmusException(ownerToken.pos(), role + " must be a variable of process " + proc);
            }
        }
        return t.text();
    }

    private void checkLocal(final Token at, final Program.Variable v, final String role) {
        if (v.owner() != proc) {
            throw new LitmusException(at.pos(), role + " must use a variable of process " + proc + ", but " + v.name()
                + " belongs to process " + v.owner() + " (use put/get for remote memory)");
        }
    }
}
