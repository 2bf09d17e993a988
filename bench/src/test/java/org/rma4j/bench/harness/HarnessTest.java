package org.rma4j.bench.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.rma4j.test.ShmTestDirectory;
import picocli.CommandLine;

/**
 * The command end to end with one Java scenario and no peers, then re-rendering from its JSON; and the
 * quick profile with every section at tiny counts: the cost parameters, every application and its C peer
 * on Open MPI at 2 and 3 ranks (3: more ranks than the 2 cores of the build machine), the sweep and the
 * loaded section. The jobs' files go to a private directory under /dev/shm, removed after each test
 * whatever its outcome. Nothing here asserts a time.
 */
class HarnessTest {
    private static final byte[] PNG_SIGNATURE = {(byte)0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path out;

    @RegisterExtension
    final ShmTestDirectory shm = new ShmTestDirectory("rma4j-test-bench-");

    @Test
    void shouldWriteJsonMarkdownAndPlotsThenRerenderFromJson() throws IOException {
        final List<String> log = new ArrayList<>();
        final int exit = new CommandLine(new Harness(log::add)).execute("--out", out.toString(), "--name", "t",
            "--shm-dir", shm.path().toString(), "--java", "floor", "--peers", "none", "--apps", "none", "--sizes",
            "8,64", "-n", "50", "-w", "10", "--bw-samples", "2", "--sweep-messages", "0", "--background-load", "0");
        assertEquals(0, exit, String.join("\n", log));
        final Results results = Results.read(out.resolve("t.json"));
        assertEquals(2, results.measurements().size());
        assertEquals("full", results.info().profile());
        assertTrue(results.notes().stream().anyMatch(n -> n.startsWith("rma4j send-recv")), results.notes().toString());
        assertTrue(results.notes().contains("C peers not run (--peers none)."));
        assertTrue(
            results.notes().stream().anyMatch(
                n -> n.startsWith("Every latency, operation and bandwidth cell " + "is the best of 3 rounds")),
            results.notes().toString());
        assertEquals(3, log.stream().filter(line -> line.contains("java floor (round ")).count(),
            String.join("\n", log));
        assertTrue(results.floorProbesNs().isEmpty(), "no probes without peers");
        assertEquals(List.of(), results.applications());
        final String md = Files.readString(out.resolve("t.md"));
        assertTrue(md.contains("| 8 B |"), md);
        assertTrue(Files.size(out.resolve("t-latency.png")) > 0);

        Files.delete(out.resolve("t.md"));
        final int rerender = new CommandLine(new Harness(log::add)).execute("--from-json",
            out.resolve("t.json").toString());
        assertEquals(0, rerender, String.join("\n", log));
        assertEquals(md, Files.readString(out.resolve("t.md")));
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void shouldRunTheQuickProfileWithEverySectionAndRerenderItFromJson() throws IOException {
        final List<String> log = Collections.synchronizedList(new ArrayList<>());
        final int exit = new CommandLine(new Harness(log::add)).execute("--profile", "quick", "--out", out.toString(),
            "--name", "q", "--shm-dir", shm.path().toString(), "--java", "floor,costs", "--sizes", "8", "-n", "20",
            "-w", "10", "--bw-samples", "2", "--app-ranks", "2,3", "--app-repeats", "2", "--app-warmup-ms", "200",
            "--stencil-grids", "40,80", "--stencil-passes", "2", "--tree-lengths", "8", "--tree-rounds", "20",
            "--cholesky-tiles", "2", "--cholesky-tile-size", "8", "--sweep-ranks", "2,3", "--sweep-messages", "256",
            "--sweep-calls", "20", "--background-load", "1", "--loaded-iterations", "20", "--floor-gate-ns", "1",
            "--floor-gate-wait", "1");
        final String transcript = String.join("\n", log);
        assertEquals(0, exit, transcript);
        // 2 Java scenarios + 3 C peers + 8 application jobs and their 8 C peers + 4 sweep jobs + 4 loaded jobs
        assertTrue(log.contains("== [1/29] java floor (elapsed 0:00)"), transcript);
        assertTrue(log.stream().anyMatch(l -> l.startsWith("== [29/29] loaded ping-pong: Open MPI, 1 busy processes")),
            transcript);
        assertTrue(log.stream().anyMatch(l -> l.contains("C peer: Open MPI application cholesky, 3 ranks")),
            transcript);

        final Results results = Results.read(out.resolve("q.json"));
        assertEquals("quick", results.info().profile());
        assertEquals(20, results.info().iterations(), "an explicit option overrides the profile");
        assertEquals(Profile.QUICK.rounds(), results.info().rounds(), "the profile's value where none is given");
        assertEquals(200, results.info().appWarmupMs());
        assertTrue(
            log.stream()
                .anyMatch(l -> l.matches("\\[0\\] stencil, 2 ranks, 40x40: [1-9][0-9]* untimed rounds in [0-9.]+ s")),
            transcript);
        // rma4j: stencil 5 variants x 2 sizes, tree 4, Cholesky 3; Open MPI: stencil 4 variants x 2 sizes, tree 2,
        // Cholesky 2; at 2 and 3 ranks
        assertEquals(2 * (5 * 2 + 4 + 3 + 4 * 2 + 2 + 2), results.applications().size(),
            results.applications().toString());
        for (final AppMeasurement m : results.applications()) {
            assertTrue(m.verified(), m.toString());
            assertEquals(2, m.throughputs().size(), m.toString());
            assertTrue(m.medianThroughput() > 0, m.toString());
        }
        assertEquals(2 * (4 * 2 + 2 + 2),
            results.applications().stream().filter(m -> m.impl().equals(Rows.OPENMPI)).count());
        // every application job and sweep job, of rma4j and of its C peer, starts after a floor probe
        for (final String probe : List.of("application stencil, 2 ranks, 40x40",
            "Open MPI application stencil, 2 ranks", "sweep: rma4j, 3 ranks", "sweep: Open MPI, 3 ranks")) {
            assertTrue(results.floorProbesNs().keySet().stream().anyMatch(label -> label.startsWith(probe)),
                probe + " in " + results.floorProbesNs().keySet());
        }
        for (final String row : List.of("t-init", "t-free", "t-start", "t-start-first", "t-na",
            "start-await-arrived")) {
            assertTrue(results.find(Rows.RMA4J, row, 8).isPresent(), row);
        }
        for (final long size : CostScenario.SIZES) {
            assertTrue(results.find(Rows.RMA4J, "na-half-round-trip", size).isPresent(), "L and G at " + size);
        }
        for (final int ranks : List.of(2, 3)) {
            for (final String row : List.of("fan-in-notified", "fan-in-notified-batch", "fan-in-messaging", "fence",
                "barrier")) {
                assertEquals(Sweeps.RUNS, results.findSweep(Rows.RMA4J, row, ranks).orElseThrow().runsNs().size(),
                    row + " at " + ranks);
            }
            for (final String row : List.of("fan-in-sendrecv", "fence", "barrier")) {
                assertTrue(results.findSweep(Rows.OPENMPI, row, ranks).isPresent(), row + " at " + ranks);
            }
        }
        for (final int load : List.of(0, 1)) {
            for (final long size : LoadedSection.SIZES) {
                assertTrue(results.findLoaded(Rows.RMA4J, "send-recv", size, load).isPresent());
                assertTrue(results.findLoaded(Rows.RMA4J, "notified-put", size, load).isPresent());
                assertTrue(results.findLoaded(Rows.OPENMPI, "send-recv", size, load).isPresent());
            }
        }

        final String md = Files.readString(out.resolve("q.md"));
        final String number = "[0-9][0-9 .]*";
        for (final String section : List.of(
            "### Pipelined stencil \\(PRK Sync_p2p\\): GMOPS, 2 timed passes[\\s\\S]*\\| 2 \\| 80x80 \\| (" + number
                + " \\|\\s?){5}(" + number + " \\|\\s?){4}",
            // the stencil's C peer runs its 4 variants: every rma4j variant over each of them
            "\\| 2 \\| 80x80 \\| (" + number + " \\|\\s?){4}(" + number + " / " + number + " / " + number + " / "
                + number + " \\|\\s?){5}",
            "### 16-ary tree reduction: reductions/s, 20 timed rounds[\\s\\S]*\\| 2 \\| 8 longs \\| (" + number
                + " \\|\\s?){4}(" + number + " \\|\\s?){3}",
            "### Tile Cholesky: GFLOP/s, tiles of 8x8[\\s\\S]*\\| 2 \\| 2x2 tiles of 8 \\(N=16\\) \\| (" + number
                + " \\|\\s?){3}(" + number + " \\|\\s?){2}",
            "\\| 3 \\| 2x2 tiles of 8 \\(N=16\\) \\| (" + number + " \\|\\s?){2}(" + number + " / " + number
                + " \\|\\s?){3}",
            "One job per application, rank count and size runs every variant: untimed rounds of all variants for at "
                + "least 0.2 s and one round",
            "Floor gate 1 ns: [1-9][0-9]* of [1-9][0-9]* probes found the C11 floor above it and waited \\([0-9]+ s in all, "
                + "at most 1 s each\\); [0-9]+ of them started their step still above it\\.",
            "## Cost parameters of Notified Access[\\s\\S]*\\| t_start \\| [^|]* \\| -?" + number + " ns \\|",
            "## Throughput and scale[\\s\\S]*\\| rma4j notified put, one request per 64 messages \\| " + number
                + " [Mk] \\(" + number + "x\\) \\| " + number + " [Mk] \\(" + number + "x\\) \\|",
            "## Ping-pong on a loaded machine[\\s\\S]*\\| 1 \\| 1 KiB \\| (" + number + " [mun]?s \\|\\s?){3}")) {
            assertTrue(Pattern.compile(section).matcher(md).find(), section + "\n" + md);
        }
        final List<String> plots = List.of("q-latency.png", "q-app-stencil.png", "q-app-tree-reduction.png",
            "q-app-cholesky.png", "q-costs.png", "q-app-vs-openmpi.png", "q-sweep.png", "q-loaded.png");
        for (final String plot : plots) {
            final byte[] head = Arrays.copyOf(Files.readAllBytes(out.resolve(plot)), PNG_SIGNATURE.length);
            assertArrayEquals(PNG_SIGNATURE, head, plot + " is not a PNG");
            assertTrue(md.contains("![" + plot + "](" + plot + ")"), plot + "\n" + md);
        }

        final Path copy = out.resolve("copy.json");
        results.write(copy);
        assertEquals(results, Results.read(copy));
        Files.delete(out.resolve("q.md"));
        for (final String plot : plots) {
            Files.delete(out.resolve(plot));
        }
        final int rerender = new CommandLine(new Harness(log::add)).execute("--from-json",
            out.resolve("q.json").toString());
        assertEquals(0, rerender, String.join("\n", log));
        assertEquals(md, Files.readString(out.resolve("q.md")));
        plots.forEach(plot -> assertTrue(Files.exists(out.resolve(plot)), plot));
        assertTrue(
            ProcessHandle.current().descendants()
                .noneMatch(p -> p.info().commandLine().orElse("").contains(BackgroundLoad.LOOP.substring(0, 20))),
            "a background load process outlived its step");
    }

    @Test
    void shouldKeepTheRoundWithTheLowestMedianOfEachCell() {
        final Measurement slow = new Measurement("rma4j", "floor", 8, 10, 250, 260, 270, 255, 240, 300);
        final Measurement fast = new Measurement("rma4j", "floor", 8, 10, 70, 80, 90, 75, 60, 100);
        final Measurement other = new Measurement("c11", "floor", 8, 10, 260, 270, 280, 265, 250, 300);
        final Measurement bigger = new Measurement("rma4j", "floor", 64, 10, 90, 95, 99, 92, 85, 100);
        assertEquals(List.of(fast, other, bigger), Harness.bestOfRounds(List.of(slow, other, bigger, fast)));
        assertEquals(List.of(), Harness.bestOfRounds(List.of()));
    }

    @Test
    void shouldRejectAnUnknownScenarioApplicationOrProfile() {
        for (final List<String> args : List.of(List.of("--java", "nope"), List.of("--apps", "nope"),
            List.of("--app-variants", "nope"), List.of("--profile", "nope"), List.of("--stencil-grids", "3"),
            List.of("--rounds", "0"), List.of("--app-warmup-ms", "-1"), List.of("--floor-gate-ns", "-1"),
            List.of("--sweep-ranks", "1"), List.of("--background-load", "-1"), List.of("--compare", "only-one.json"))) {
            final List<String> all = new ArrayList<>(
                List.of("--out", out.toString(), "--peers", "none", "--shm-dir", shm.path().toString()));
            all.addAll(args);
            final int exit = new CommandLine(new Harness(line -> {
            })).execute(all.toArray(String[]::new));
            assertEquals(2, exit, args.toString());
        }
    }
}
