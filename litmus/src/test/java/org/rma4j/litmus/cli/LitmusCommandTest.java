package org.rma4j.litmus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rma4j.litmus.Seeds;

class LitmusCommandTest {
    private record Result(int status, String out, String err) {
    }

    private static Result run(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int status = LitmusCommand.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(status, out.toString(), err.toString());
    }

    private static String seed(final String name) {
        return Seeds.directory().resolve(name + ".litmus").toString();
    }

    @Test
    void modelPrintsTheAllowedStatesLikeHerd() {
        final Result r = run("model", "--rules", seed("core-fig6"));
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("States 2\n0:a=0; 1:b=0; X=0; Y=0;\n0:a=1; 1:b=0; X=0; Y=0;\nNo\n"), r.out());
        assertTrue(r.out().contains("Observation core-fig6 Never 0 2"), r.out());
        assertTrue(r.out().contains("Rules IR"), r.out());
        final Result noIr = run("model", "--no-ir", "--registers", seed("core-fig6"));
        assertTrue(noIr.out().contains("States 4\n"), noIr.out());
        assertTrue(noIr.out().contains("Ok\n"), noIr.out());
        final Result na = run("model", "--registers", "--atomicity", "nonatomic", seed("core-fig3a"));
        assertTrue(na.out().contains("States 3\n0:a=?;\n0:a=0;\n0:a=1;\n"), na.out());
    }

    @Test
    void mpiAllowsStoreBufferingThroughAccumulatesThatRma4jForbids() {
        final Result rma4j = run("model", "--registers", seed("sb-acc-fop"));
        assertTrue(rma4j.out().contains("Observation sb-acc-fop Never"), rma4j.out());
        final Result mpi = run("model", "--mpi", seed("sb-acc-fop"));
        assertTrue(mpi.out().contains("model: MPI"), mpi.out());
        assertTrue(mpi.out().contains("Observation sb-acc-fop Sometimes"), mpi.out());
    }

    @Test
    void graphWritesTheDotOfTheForbiddingCycle(@TempDir final Path dir) throws Exception {
        final Result r = run("graph", "--no-svg", "-o", dir.toString(), seed("core-fig6"));
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("core-fig6: forbidden by IR"), r.out());
        final String dot = Files.readString(dir.resolve("core-fig6.dot"));
        assertTrue(dot.startsWith("digraph \"core-fig6\""), dot);
        final Result allowed = run("graph", "--no-svg", "--no-ir", "--state", "1:b=0", "-o", dir.toString(),
            seed("core-fig6"));
        assertTrue(allowed.out().contains("core-fig6: allowed"), allowed.out());
    }

    @Test
    void runInThreadModePrintsTheObservationLine() {
        final Result r = run("run", "--mode", "threads", "-n", "200", "--delay", "20", seed("core-fig6"));
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("Histogram ("), r.out());
        assertTrue(r.out().matches("(?s).*Observation core-fig6 Never 0 200\n.*"), r.out());
        assertTrue(r.out().contains("Verdict core-fig6 PASS"), r.out());
    }

    @Test
    void badFilesExitWithStatusTwoAndAPosition(@TempDir final Path dir) throws Exception {
        final Path bad = dir.resolve("bad.litmus");
        Files.writeString(bad, "RMA bad\n{ X@0 = 0; }\nP0 ;\n r = get(X) ;\n");
        final Result r = run("model", bad.toString());
        assertEquals(LitmusCommand.EXIT_ERROR, r.status());
        assertTrue(r.err().contains("bad.litmus:4:2: the result of get goes to a variable"), r.err());
        assertEquals(LitmusCommand.EXIT_ERROR, run("run", "--mode", "threads", bad.toString()).status());
    }

    @Test
    void genThenSuiteWritesTheSummary(@TempDir final Path dir) throws Exception {
        final Path tests = dir.resolve("tests");
        final Result gen = run("gen", "-o", tests.toString(), "--procs", "2", "--stmts", "2", "--max", "4");
        assertEquals(0, gen.status(), gen.err());
        assertTrue(gen.out().startsWith("Generated 4 tests in "), gen.out());
        try (var files = Files.list(tests)) {
            assertEquals(4, files.count());
        }
        final Path summary = dir.resolve("summary");
        final Result suite = run("suite", tests.toString(), "--mode", "threads", "-n", "50", "--delay", "10", "-o",
            summary.toString());
        assertEquals(0, suite.status(), suite.out() + suite.err());
        assertTrue(suite.err().contains("[4/4] "), suite.err());
        assertTrue(Files.readString(summary.resolve("summary.md")).contains("| Summary |"));
        assertTrue(Files.readString(summary.resolve("summary.json")).contains("\"tests\": ["));
        assertTrue(suite.out().contains("Suite: 4 tests, 0 failed"), suite.out());
    }

    @Test
    void helpListsTheSubcommands() {
        final Result r = run("--help");
        assertEquals(0, r.status());
        for (final String cmd : new String[] {"model", "run", "gen", "suite"}) {
            assertTrue(r.out().contains(cmd), r.out());
        }
    }
}
