package org.rma4j.bench.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Parsing and grouping of {@code perf report} output, on an excerpt of rank 0's report of a notified-put
 * ping-pong (captured with {@code perf report --stdio --no-children -n --sort comm,dso,sym -g none
 * --percent-limit 0 -t TAB --pid PID}; a few lines of each kind kept).
 */
class PerfReportTest {
    private static final String AWAIT = "void org.rma4j.shm.WaitStrategy.awaitCondition(java.lang.foreign.MemorySegment,"
        + " long, java.util.function.BooleanSupplier, org.rma4j.shm.Liveness, boolean, boolean, long)";

    private static String fixture() throws IOException {
        try (InputStream in = PerfReportTest.class.getResourceAsStream("perf-report-rank0.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void shouldReadEveryDataLineWithItsSamplesThreadObjectAndSymbol() throws IOException {
        final PerfReport report = PerfReport.parse(fixture());

        assertEquals(44 - 9, report.entries().size());
        assertEquals(160_894, report.total());
        final PerfReport.Entry first = report.entries().get(0);
        assertEquals(126_719, first.samples());
        assertEquals("java", first.comm());
        assertEquals("[JIT] tid 32754", first.dso());
        assertEquals(AWAIT, first.symbol());
        assertTrue(report.entries().stream().anyMatch(e -> e.kernel() && e.symbol().equals("__x64_sys_futex")));
    }

    @Test
    void shouldSplitSamplesByThreadClass() throws IOException {
        final Map<PerfReport.ThreadClass, Long> threads = PerfReport.parse(fixture()).byThreadClass();

        // java 159201 + rma4j-abort-watcher 1480; the C2 compiler; no GC thread (the VM thread runs the serial
        // collector); VM Thread 77, the launcher's thread before exec 24, jspawnhelper 4
        assertEquals(160_681, threads.get(PerfReport.ThreadClass.APPLICATION));
        assertEquals(108, threads.get(PerfReport.ThreadClass.JIT_COMPILER));
        assertEquals(0, threads.get(PerfReport.ThreadClass.GC));
        assertEquals(105, threads.get(PerfReport.ThreadClass.OTHER));
    }

    @Test
    void shouldGroupApplicationSamplesByLayerAndRma4jPackage() throws IOException {
        final Map<String, Long> groups = PerfReport.parse(fixture()).threads(PerfReport.ThreadClass.APPLICATION)
            .byGroup();

        assertEquals(133_577, groups.get("rma4j (JIT) org.rma4j.shm"));
        assertEquals(819, groups.get("kernel"));
        assertEquals(282, groups.get("JVM (libjvm.so)"));
        assertEquals(3360 + 415, groups.get("interpreter"));
        assertEquals(1124, groups.get("rma4j (JIT) org.rma4j.bench.harness"));
        assertEquals(160_681, groups.values().stream().mapToLong(Long::longValue).sum());
        assertEquals("rma4j (JIT) org.rma4j.shm", groups.keySet().iterator().next());
    }

    @Test
    void shouldMergeTheCompilationsOfOneMethodInTheTopSymbols() throws IOException {
        final List<PerfReport.Symbol> top = PerfReport.parse(fixture()).threads(PerfReport.ThreadClass.APPLICATION)
            .top(3);

        assertEquals(3, top.size());
        assertEquals(AWAIT, top.get(0).name());
        assertEquals(126_719 + 3705 + 1441 + 765, top.get(0).samples());
        assertEquals("int org.rma4j.notify.NotifyLanes.drain(org.rma4j.notify.NotificationHandler, int)",
            top.get(1).name());
        assertEquals("rma4j (JIT) org.rma4j.notify", top.get(1).group());
    }

    @Test
    void shouldClassifyEveryKindOfSymbol() {
        assertEquals(PerfReport.Layer.INTERPRETER, entry("[JIT] tid 1", "Interpreter").layer());
        assertEquals(PerfReport.Layer.JIT_STUBS, entry("[JIT] tid 1", "I2C/C2I adapters").layer());
        assertEquals(PerfReport.Layer.JIT_STUBS, entry("[JIT] tid 1", "StubRoutines (final stubs)").layer());
        assertEquals(PerfReport.Layer.JDK,
            entry("/tmp/perf-1.map", "void jdk.internal.misc.Unsafe.park(boolean, long)").layer());
        assertEquals(PerfReport.Layer.OTHER_JAVA,
            entry("perf-1.map", "int picocli.CommandLine.execute(java.lang.String[])").layer());
        assertEquals(PerfReport.Layer.JVM, entry("libjvm.so", "Parker::park").layer());
        assertEquals(PerfReport.Layer.NATIVE, entry("libc.so.6", "__futex_abstimed_wait_common").layer());
        assertEquals(PerfReport.Layer.NATIVE, entry("[vdso]", "__vdso_clock_gettime").layer());
        assertEquals(PerfReport.Layer.KERNEL,
            new PerfReport.Entry(1, "java", "[kernel.kallsyms]", "futex_wait", true).layer());
        assertEquals("rma4j (JIT) org.rma4j.bench.harness",
            entry("[JIT] tid 1", "void org.rma4j.bench.harness.RmaScenarios$$Lambda/0x000000006f0a6fb8.run(int, long)")
                .group());
    }

    @Test
    void shouldRejectALineOfAnotherFormat() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> PerfReport.parse("    26.51%  java  [JIT] tid 1  [.] Interpreter\n"));
        assertTrue(e.getMessage().contains("26.51%"), e.getMessage());
    }

    @Test
    void shouldShowRankZeroBesideTheOtherRanksMergedWithTheTargetAndBaseline() throws IOException {
        final PerfReport rank = PerfReport.parse(fixture());
        final TreeMap<Integer, PerfReport> ranks = new TreeMap<>(Map.of(0, rank, 1, rank, 2, rank));
        final ProfileScenario scenario = ProfileScenario.of("fan-in-messaging@3");
        final String md = ProfileMarkdown.write(List.of("header line"),
            List.of(new ProfileMarkdown.ScenarioProfile(scenario, 2_000_000, null, 4.5, ranks,
                List.of(2_300_000.0, 16_400_000.0), List.of())),
            5, 9999);

        assertTrue(md.contains("## fan-in-messaging, 3 ranks"), md);
        assertTrue(md.contains("| thread | rank 0 | ranks 1-2 |"), md);
        assertTrue(md.contains("| samples (CPU s) | 160894 (16.09) | 321788 (32.18) |"), md);
        assertTrue(md.contains("| Open MPI send / recv(ANY_SOURCE), baseline report | 16.40 M | 0.12x |"), md);
        assertTrue(md.contains("| 82.5 | `" + AWAIT + "` | rma4j (JIT) org.rma4j.shm |"), md);
    }

    @Test
    void shouldProfileASingleOperationBesideOpenMpisSameRow() {
        final ProfileScenario scenario = ProfileScenario.of("lock-unlock");
        assertEquals("operation", scenario.kind());
        assertEquals("lock-unlock", scenario.row());
        assertEquals(
            List.of(new ProfileScenario.Baseline("rma4j lock-unlock", "rma4j", "lock-unlock", 8),
                new ProfileScenario.Baseline("Open MPI lock-unlock", "openmpi", "lock-unlock", 8)),
            scenario.baselines());
        assertEquals("ns per call", scenario.unit());
        assertEquals("lock-unlock, rank 0 to rank 1's window", scenario.title());
        assertTrue(ProfileScenario.DEFAULTS.contains("lock-unlock"), ProfileScenario.DEFAULTS.toString());
        ProfileScenario.DEFAULTS.forEach(ProfileScenario::of);

        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ProfileScenario.of("unlock-lock"));
        assertTrue(e.getMessage().contains("unlock-lock") && e.getMessage().contains("lock-unlock"), e.getMessage());
    }

    @Test
    void shouldRejectANegativeFloorGateBeforeRunningAnything() {
        assertEquals(2, new picocli.CommandLine(new ProfileMain()).execute("--floor-gate-ns", "-1"));
        assertEquals(2, new picocli.CommandLine(new ProfileMain()).execute("--floor-gate-wait", "-5"));
    }

    private static PerfReport.Entry entry(final String dso, final String symbol) {
        return new PerfReport.Entry(1, "java", dso, symbol, false);
    }
}
