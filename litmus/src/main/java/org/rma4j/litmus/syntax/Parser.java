package org.rma4j.litmus.syntax;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads litmus files (grammar in the module README). Errors name file, line and column.
 *
 * <pre>
 * RMA name ["doc"] {key = value} { X@0 = 1; Y@1 = 0; }
 *  P0      | P1            ;        (or: P0 { a = X; }  P1 { put(X, Y); ... })
 *  a = X   | put(X@0, Y)   ;
 * [locations [0:a; X;]]
 * [exists | ~exists | forall] (0:a=0 /\ X=1)
 * </pre>
 */
public final class Parser {
    /** Most elements of one variable (64 KiB of longs). */
    static final int MAX_ELEMENTS = 8192;

    private final TokenCursor in;
    private final Map<String, Program.Variable> variables = new LinkedHashMap<>();
    private final Map<String, String> info = new LinkedHashMap<>();
    private int processCount;

    private Parser(final String file, final String text) {
        this.in = new TokenCursor(new Lexer(file, text).tokens());
    }

    /**
     * Parses and checks a litmus program ({@link Checker}).
     *
     * @param file name used in error positions.
     * @throws LitmusException on a syntax error or a static error.
     */
    public static Program parse(final String file, final String text) {
        final Program program = new Parser(file, text).program();
        Checker.check(program);
        return program;
    }

    /** Reads and parses a file. */
    public static Program parse(final Path path) throws IOException {
        return parse(path.getFileName().toString(), Files.readString(path));
    }

    private Program program() {
        final Token rma = in.next();
        if (!rma.is("RMA")) {
            throw new LitmusException(rma.pos(), "expected 'RMA' and a test name, found " + rma.describe());
        }
        final String name = testName(rma);
        String doc = "";
        if (in.peek().kind() == Token.Kind.STRING) {
            doc = in.next().text();
        }
        while (in.peek().kind() == Token.Kind.IDENT) {
            header();
        }
        init();
        final List<List<Stmt>> processes = processesOf(
            in.peekAt(1).kind() == Token.Kind.LBRACE || in.peekAt(1).kind() == Token.Kind.COLON);
        for (final Program.Variable v : variables.values()) {
            if (v.owner() >= processCount) {
                throw new LitmusException(v.pos(), "variable " + v.name() + " is owned by process " + v.owner()
                    + " but the test has " + processCount + " process(es)");
            }
        }
        List<Loc> locations = null;
        if (in.peek().is("locations")) {
            locations = locationsDirective(processes);
        }
        Condition condition = null;
        if (in.peek().kind() != Token.Kind.EOF) {
            condition = new ConditionParser(in, () -> location(processes)).condition();
        }
        final Token end = in.peek();
        if (end.kind() != Token.Kind.EOF) {
            throw new LitmusException(end.pos(), "expected end of file after the condition, found " + end.describe());
        }
        return new Program(name, doc, info, List.copyOf(variables.values()), processes, locations, condition);
    }

    /** One header line {@code key = value [;]}: atomicity and accumulate_ordering take known values only. */
    private void header() {
        final Token key = in.next();
        in.expect(Token.Kind.EQ, "'=' after header key " + key.describe());
        final Token value = in.next();
        if (value.kind() != Token.Kind.IDENT && value.kind() != Token.Kind.INT && value.kind() != Token.Kind.STRING) {
            throw new LitmusException(value.pos(),
                "expected a value for " + key.describe() + ", found " + value.describe());
        }
        if (key.text().equals(Program.ATOMICITY_KEY) && !value.is("atomic") && !value.is("nonatomic")) {
            throw new LitmusException(value.pos(),
                "atomicity must be 'atomic' or 'nonatomic', found " + value.describe());
        }
        if (key.text().equals(Program.ACCUMULATE_ORDERING_KEY) && !value.text().trim().equals("none")) {
            for (final String order : value.text().split(",")) {
                if (!Program.ACCUMULATE_ORDERS.contains(order.trim())) {
                    throw new LitmusException(value.pos(),
                        "accumulate_ordering is none or a list of rar, raw, war," + " waw; found " + value.describe());
                }
            }
        }
        info.put(key.text(), value.text());
        in.accept(Token.Kind.SEMI);
    }

    /** The test name: every token on the line of RMA, glued (names like {@code fig3a-na} or {@code MP+flush}). */
    private String testName(final Token rma) {
        final StringBuilder name = new StringBuilder();
        while (in.peek().pos().line() == rma.pos().line() && in.peek().kind() != Token.Kind.EOF
            && in.peek().kind() != Token.Kind.STRING && in.peek().kind() != Token.Kind.LBRACE) {
            name.append(in.next().text());
        }
        if (name.isEmpty()) {
            throw new LitmusException(in.peek().pos(), "expected a test name after 'RMA' on the same line");
        }
        return name.toString();
    }

    private void init() {
        in.expect(Token.Kind.LBRACE, "'{' opening the init block (e.g. { X@0 = 1; })");
        while (!in.accept(Token.Kind.RBRACE)) {
            final Token nameToken = in.expect(Token.Kind.IDENT, "a variable name in the init block");
            in.expect(Token.Kind.AT, "'@' and the owner process after variable " + nameToken.text());
            final int owner = processNumber(in.next());
            VarType type = VarType.LONG;
            int count = 1;
            if (in.accept(Token.Kind.COLON)) {
                final Token typeToken = in.expect(Token.Kind.IDENT, "a type (long, int, short, double)");
                type = VarType.byName(typeToken.text());
                if (type == null) {
                    throw new LitmusException(typeToken.pos(),
                        "unknown type " + typeToken.describe() + " (long, int, short, double)");
                }
                if (in.accept(Token.Kind.LBRACKET)) {
                    final Token c = in.expect(Token.Kind.INT, "the number of elements");
                    final long n = TokenCursor.parseValue(c, false);
                    if (n < 1 || n > MAX_ELEMENTS) {
                        throw new LitmusException(c.pos(), "a variable has 1.." + MAX_ELEMENTS + " elements, not " + n);
                    }
                    count = (int)n;
                    in.expect(Token.Kind.RBRACKET, "']' after the number of elements");
                }
            }
            in.expect(Token.Kind.EQ, "'=' and the initial value of " + nameToken.text());
            final Token valueToken = in.peek();
            final long value = number();
            if (type.narrow(value) != value) {
                throw new LitmusException(valueToken.pos(),
                    "initial value " + value + " does not fit a " + type.litmusName());
            }
            if (variables.containsKey(nameToken.text())) {
                throw new LitmusException(nameToken.pos(), "variable " + nameToken.text() + " is declared twice");
            }
            if (ConditionParser.RESERVED.contains(nameToken.text()) || StatementParser.isKeyword(nameToken.text())) {
                throw new LitmusException(nameToken.pos(),
                    "'" + nameToken.text() + "' is a keyword, not a variable name");
            }
            variables.put(nameToken.text(),
                new Program.Variable(nameToken.text(), owner, value, type, count, nameToken.pos()));
            if (!in.accept(Token.Kind.SEMI) && in.peek().kind() != Token.Kind.RBRACE) {
                throw new LitmusException(in.peek().pos(),
                    "expected ';' or '}' in the init block, found " + in.peek().describe());
            }
        }
    }

    private List<List<Stmt>> processesOf(final boolean blocks) {
        return blocks ? blockForm() : columnForm();
    }

    private List<List<Stmt>> blockForm() {
        processCount = countBlocks();
        final List<List<Stmt>> processes = new ArrayList<>();
        while (in.peek().kind() == Token.Kind.IDENT && isProcessName(in.peek().text())) {
            final Token header = in.next();
            expectProcess(header, processes.size());
            in.accept(Token.Kind.COLON);
            in.expect(Token.Kind.LBRACE, "'{' opening the statements of " + header.text());
            final List<Stmt> stmts = new ArrayList<>();
            processes.add(stmts);
            while (!in.accept(Token.Kind.RBRACE)) {
                if (in.accept(Token.Kind.SEMI)) {
                    continue;
                }
                stmts.add(statement(processes.size() - 1, Token.Kind.SEMI, Token.Kind.RBRACE));
                if (!in.accept(Token.Kind.SEMI) && in.peek().kind() != Token.Kind.RBRACE) {
                    throw new LitmusException(in.peek().pos(),
                        "expected ';' or '}' after a statement, found " + in.peek().describe());
                }
            }
        }
        if (processes.isEmpty()) {
            throw new LitmusException(in.peek().pos(), "expected process P0, found " + in.peek().describe());
        }
        return processes;
    }

    /** Counts the blocks {@code Pn [:] {...}} ahead, so that statements may name later processes. */
    private int countBlocks() {
        int count = 0;
        int depth = 0;
        for (int i = 0; in.peekAt(i).kind() != Token.Kind.EOF; i++) {
            final Token t = in.peekAt(i);
            if (t.kind() == Token.Kind.LBRACE) {
                depth++;
            } else if (t.kind() == Token.Kind.RBRACE) {
                depth--;
            } else if (depth == 0 && t.kind() == Token.Kind.IDENT && isProcessName(t.text())
                && (in.peekAt(i + 1).kind() == Token.Kind.LBRACE
                    || (in.peekAt(i + 1).kind() == Token.Kind.COLON && in.peekAt(i + 2).kind() == Token.Kind.LBRACE))) {
                count++;
            }
        }
        return count;
    }

    private List<List<Stmt>> columnForm() {
        final List<List<Stmt>> processes = new ArrayList<>();
        do {
            final Token header = in.next();
            expectProcess(header, processes.size());
            processes.add(new ArrayList<>());
        } while (in.accept(Token.Kind.PIPE));
        in.expect(Token.Kind.SEMI, "';' ending the row of process names");
        processCount = processes.size();
        while (!atEndOfTable()) {
            final Token rowStart = in.peek();
            for (int p = 0; p < processes.size(); p++) {
                if (p > 0 && !in.accept(Token.Kind.PIPE)) {
                    throw new LitmusException(in.peek().pos(), "row has " + p + " column(s) but the test has "
                        + processes.size() + " processes (expected '|', found " + in.peek().describe() + ")");
                }
                final Token.Kind next = in.peek().kind();
                if (next != Token.Kind.PIPE && next != Token.Kind.SEMI) {
                    processes.get(p).add(statement(p, Token.Kind.PIPE, Token.Kind.SEMI));
                }
            }
            if (in.peek().kind() == Token.Kind.PIPE) {
                throw new LitmusException(in.peek().pos(), "row starting at line " + rowStart.pos().line()
                    + " has more columns than the " + processes.size() + " processes");
            }
            in.expect(Token.Kind.SEMI, "';' ending the row");
        }
        return processes;
    }

    private boolean atEndOfTable() {
        final Token t = in.peek();
        return t.kind() == Token.Kind.EOF || t.is("exists") || t.is("forall") || t.is("locations")
            || (t.kind() == Token.Kind.TILDE && in.peekAt(1).is("exists"));
    }

    private Stmt statement(final int proc, final Token.Kind... terminators) {
        return new StatementParser(in, variables, processCount, proc).statement(terminators);
    }

    private void expectProcess(final Token header, final int expected) {
        if (header.kind() != Token.Kind.IDENT || !isProcessName(header.text())) {
            throw new LitmusException(header.pos(), "expected process P" + expected + ", found " + header.describe());
        }
        if (Integer.parseInt(header.text().substring(1)) != expected) {
            throw new LitmusException(header.pos(), "expected process P" + expected + ", found " + header.text()
                + " (processes are numbered P0, P1, ... in order)");
        }
    }

    static boolean isProcessName(final String text) {
        return text.length() >= 2 && text.charAt(0) == 'P' && text.substring(1).chars().allMatch(Character::isDigit);
    }

    private List<Loc> locationsDirective(final List<List<Stmt>> processes) {
        in.next();
        in.expect(Token.Kind.LBRACKET, "'[' after 'locations'");
        final List<Loc> locs = new ArrayList<>();
        while (!in.accept(Token.Kind.RBRACKET)) {
            locs.add(location(processes));
            if (!in.accept(Token.Kind.SEMI) && in.peek().kind() != Token.Kind.RBRACKET) {
                throw new LitmusException(in.peek().pos(),
                    "expected ';' or ']' in locations, found " + in.peek().describe());
            }
        }
        return locs;
    }

    /** {@code proc:register} or {@code variable}, checked against the program. */
    private Loc location(final List<List<Stmt>> processes) {
        final Token first = in.next();
        if (first.kind() == Token.Kind.INT || (first.kind() == Token.Kind.IDENT && isProcessName(first.text())
            && in.peek().kind() == Token.Kind.COLON)) {
            final int proc = processNumber(first);
            in.expect(Token.Kind.COLON, "':' between process and register");
            final Token reg = in.expect(Token.Kind.IDENT, "a register name");
            final boolean known = processes.get(proc).stream()
                .anyMatch(s -> s.assignedRegisters().contains(reg.text()));
            if (!known) {
                throw new LitmusException(reg.pos(), "process " + proc + " has no register " + reg.text()
                    + " (registers are the targets of local reads)");
            }
            return Loc.register(proc, reg.text());
        }
        if (first.kind() != Token.Kind.IDENT) {
            throw new LitmusException(first.pos(),
                "expected a register (0:a) or a variable, found " + first.describe());
        }
        if (!variables.containsKey(first.text())) {
            throw new LitmusException(first.pos(),
                "unknown variable " + first.text() + " (registers are written proc:name, e.g. 0:" + first.text() + ")");
        }
        return Loc.memory(first.text());
    }

    private int processNumber(final Token t) {
        final int proc;
        if (t.kind() == Token.Kind.INT) {
            proc = Integer.parseInt(t.text());
        } else if (t.kind() == Token.Kind.IDENT && isProcessName(t.text())) {
            proc = Integer.parseInt(t.text().substring(1));
        } else {
            throw new LitmusException(t.pos(), "expected a process number, found " + t.describe());
        }
        if (processCount > 0 && proc >= processCount) {
            throw new LitmusException(t.pos(),
                "process " + proc + " does not exist (the test has " + processCount + " process(es))");
        }
        return proc;
    }

    private long number() {
        final boolean negative = in.accept(Token.Kind.MINUS);
        final Token digits = in.expect(Token.Kind.INT, "a number");
        return TokenCursor.parseValue(digits, negative);
    }
}
