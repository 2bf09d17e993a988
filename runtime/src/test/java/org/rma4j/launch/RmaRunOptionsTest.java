package org.rma4j.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.shm.JobDirectory;
import org.rma4j.test.ShmTestDirectory;

/**
 * The options of rmarun an MPI user expects: -np, -x, --bind-to, --output-filename, and one-line errors.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RmaRunOptionsTest {
    private static final Pattern READY = Pattern.compile("\\[(\\d+)] ready (\\d+)");

    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    private ShmTestDirectory base;

    @BeforeEach
    void createBaseDirectory() throws IOException {
        base = new ShmTestDirectory("launch-test-");
    }

    @AfterEach
    void removeBaseDirectory() throws IOException {
        base.close();
    }

    @Test
    void shouldTakeNpAsTheNumberOfRanks() throws IOException {
        assertEquals(0, run("-np", "2", RankProgram.class.getName(), "echo"), this::err);
        assertTrue(out().contains("[0] out 0 of 2"), this::out);
        assertTrue(out().contains("[1] out 1 of 2"), this::out);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldSetTheEnvironmentVariablesOfX() {
        assertEquals(0, run("-n", "2", "-x", "RMA4J_TEST_EXTRA=a=b c", RankProgram.class.getName(), "env"), this::err);
        assertTrue(out().contains("[0] rank=0") && out().contains("extra=a=b c"), this::out);
        assertEquals(2, out().lines().filter(line -> line.endsWith(" extra=a=b c")).count(), this::out);
    }

    @Test
    void shouldRejectXOfAVariableRmarunDoesNotHave() {
        assertEquals(RmaRun.EXIT_USAGE, run("-n", "2", "-x", "RMA4J_TEST_SURELY_UNSET_42", "Main"));
        assertOneLineError("-x RMA4J_TEST_SURELY_UNSET_42: RMA4J_TEST_SURELY_UNSET_42 is not set");
    }

    @Test
    void shouldWriteEachRanksOutputToItsFile() throws IOException {
        final Path directory = base.path().resolve("output");
        assertEquals(0,
            run("-n", "2", "--output-filename", directory.toString(), RankProgram.class.getName(), "echo", "x"),
            this::err);
        for (int rank = 0; rank < 2; rank++) {
            final List<String> lines = Files.readAllLines(directory.resolve("rank." + rank));
            assertTrue(lines.contains("out " + rank + " of 2"), lines::toString);
            assertTrue(lines.contains("err " + rank), lines::toString);
            assertTrue(lines.contains("args=x"), lines::toString);
        }
        assertFalse(out().contains("out 0 of 2"), this::out);
    }

    @Test
    void shouldPinRankIToTheIthAllowedCpuWithBindToCore() throws Exception {
        final int[] allowed = Launcher.parseCpuList(cpusAllowed(ProcessHandle.current().pid()));
        final Map<Integer, int[]> cpus = cpusOfRanks(3, "--bind-to", "core");
        for (final Map.Entry<Integer, int[]> rank : cpus.entrySet()) {
            assertArrayEquals(new int[] {allowed[rank.getKey() % allowed.length]}, rank.getValue(),
                "CPUs of rank " + rank.getKey());
        }
    }

    @Test
    void shouldBindAsMpirunDoesByDefault() throws Exception {
        final int[] allowed = Launcher.parseCpuList(cpusAllowed(ProcessHandle.current().pid()));
        // NOTE: on a machine of one CPU a job of 2 ranks is oversubscribed and runs unbound, as under mpirun.
        final Map<Integer, int[]> two = cpusOfRanks(2);
        for (final Map.Entry<Integer, int[]> rank : two.entrySet()) {
            assertArrayEquals(allowed.length >= 2 ? new int[] {allowed[rank.getKey()]} : allowed, rank.getValue(),
                "CPUs of rank " + rank.getKey() + " of 2");
        }
        for (final Map.Entry<Integer, int[]> rank : cpusOfRanks(3).entrySet()) {
            assertArrayEquals(allowed, rank.getValue(), "CPUs of rank " + rank.getKey() + " of 3 (unbound)");
        }
        for (final Map.Entry<Integer, int[]> rank : cpusOfRanks(2, "--bind-to", "none").entrySet()) {
            assertArrayEquals(allowed, rank.getValue(), "CPUs of rank " + rank.getKey() + " with --bind-to none");
        }
    }

    @Test
    void shouldBindJobsOfAtMostTwoRanksAndNoMoreRanksThanCpusByDefault() {
        assertTrue(Launcher.bindsByDefault(1, 1));
        assertTrue(Launcher.bindsByDefault(2, 2));
        assertTrue(Launcher.bindsByDefault(2, 64));
        assertFalse(Launcher.bindsByDefault(2, 1), "more ranks than CPUs");
        assertFalse(Launcher.bindsByDefault(3, 64), "more than 2 ranks");
    }

    /**
     * Starts a job of {@code ranks} ranks that sleep, with {@code options}, and reads the CPUs each rank may run on.
     */
    private Map<Integer, int[]> cpusOfRanks(final int ranks, final String... options) throws Exception {
        final List<String> command = new ArrayList<>(List.of("-n", Integer.toString(ranks)));
        command.addAll(List.of(options));
        command.addAll(List.of(RankProgram.class.getName(), "sleep"));
        final Process launcher = new ProcessBuilder(RmaRunProcess.command(base.path(), command))
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final Map<Integer, int[]> cpus = new TreeMap<>();
        try (BufferedReader lines = new BufferedReader(
            new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8))) {
            final Map<Integer, Long> pids = new TreeMap<>();
            while (pids.size() < ranks) {
                final String line = lines.readLine();
                assertFalse(line == null, "rmarun ended before its ranks were ready");
                final Matcher ready = READY.matcher(line);
                if (ready.matches()) {
                    pids.put(Integer.parseInt(ready.group(1)), Long.parseLong(ready.group(2)));
                }
            }
            for (final Map.Entry<Integer, Long> rank : pids.entrySet()) {
                cpus.put(rank.getKey(), Launcher.parseCpuList(cpusAllowed(rank.getValue())));
            }
        } finally {
            launcher.destroy();
            launcher.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS);
            RmaRunProcess.destroy(launcher);
        }
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
        return cpus;
    }

    @Test
    void shouldParseCpuLists() {
        assertArrayEquals(new int[] {0, 1, 2, 3, 8, 10, 11}, Launcher.parseCpuList("0-3,8,10-11"));
        assertArrayEquals(new int[] {5}, Launcher.parseCpuList("5"));
    }

    @Test
    void shouldRejectABindingOtherThanCoreOrNone() {
        assertEquals(RmaRun.EXIT_USAGE, run("-n", "2", "--bind-to", "socket", "Main"));
        assertOneLineError("--bind-to must be core or none, got 'socket'");
    }

    @Test
    void shouldRejectAnUnknownOptionInOneLine() {
        assertEquals(RmaRun.EXIT_USAGE, run("-n", "2", "--frobnicate", "Main"));
        assertOneLineError("Unknown option: '--frobnicate'");
    }

    @Test
    void shouldRejectZeroRanksInOneLine() {
        assertEquals(RmaRun.EXIT_USAGE, run("-n", "0", "Main"));
        assertOneLineError("-n must be between 1 and 4096, got 0");
    }

    @Test
    void shouldNameTheClassPathSearchedForAMissingMainClass() throws IOException {
        assertEquals(RmaRun.EXIT_CANNOT_START, run("-n", "2", "-cp", "/nonexistent/app.jar", "org.example.Missing"));
        assertOneLineError("main class org.example.Missing not found in the class path /nonexistent/app.jar:");
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldDocumentTheExitStatusesInTheHelp() {
        assertEquals(0, run("--help"));
        for (final String status : List.of("Exit status:", "  124  --timeout", "  130  rmarun was interrupted",
            "  2    usage error", "  74 ")) {
            assertTrue(out().contains(status), this::out);
        }
        assertTrue(out().contains("-np") && out().contains("--output-filename") && out().contains("--status"),
            this::out);
    }

    private void assertOneLineError(final String expected) {
        final List<String> lines = err().lines().toList();
        assertEquals(1, lines.size(), this::err);
        assertTrue(lines.get(0).startsWith("rmarun: ") && lines.get(0).contains(expected), this::err);
    }

    private static String cpusAllowed(final long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
            .filter(line -> line.startsWith("Cpus_allowed_list:"))
            .map(line -> line.substring(line.indexOf(':') + 1).trim()).findFirst().orElseThrow();
    }

    private int run(final String... args) {
        final String[] all = new String[args.length + 2];
        all[0] = "--shm-dir";
        all[1] = base.path().toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return RmaRun.execute(out, err, all);
    }

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }
}
