package org.rma4j.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Detection of the peer tools, and the peers themselves with tiny counts. The tools are prerequisites of
 * the build ({@code .ci/run} installs them): a missing one fails its test with the packages to install.
 */
class PeersTest {
    private static final long[] SIZES = {8, 1024};
    private static final int ITERATIONS = 20;
    /** What installs every peer tool on Debian / Ubuntu, as .ci/run does. */
    private static final String INSTALL = "Debian: apt-get install gcc openmpi-bin libopenmpi-dev mpich libmpich-dev; .ci/run installs them";

    @TempDir
    Path work;

    @Test
    void shouldSkipEveryPeerWithANoteWhenNoToolIsFound() throws IOException {
        final Path emptyBin = Files.createDirectory(work.resolve("bin"));
        final Peers.Detection detection = Peers.detect(emptyBin.toString());
        assertTrue(detection.gcc().isEmpty());
        assertFalse(detection.openMpi().present());
        assertFalse(detection.mpich().present());
        final List<String> notes = new ArrayList<>();
        final List<Measurement> measurements = new Peers(work, line -> {
        }, notes).runAll(detection, SIZES, ITERATIONS, 5, 2);
        assertEquals(List.of(), measurements);
        assertEquals(3, notes.size(), notes.toString());
        assertTrue(notes.get(1).startsWith("Open MPI columns skipped: mpicc.openmpi mpirun.openmpi not found"),
            notes.get(1));
        assertTrue(notes.get(2).contains("apt-get install mpich libmpich-dev"), notes.get(2));
    }

    @Test
    void shouldFindExecutablesOnThePath() throws IOException {
        final Path bin = Files.createDirectory(work.resolve("bin"));
        final Path tool = Files.createFile(bin.resolve("mpicc.openmpi"));
        assertEquals(Optional.empty(), Processes.which("mpicc.openmpi", bin.toString()), "not executable yet");
        assertTrue(tool.toFile().setExecutable(true));
        assertEquals(Optional.of(tool), Processes.which("mpicc.openmpi", "/nonexistent:" + bin));
        assertFalse(Peers.detect(bin.toString()).openMpi().present(), "mpirun.openmpi is still missing");
    }

    @Test
    void shouldExtractTheCSources() {
        new Peers(work, line -> {
        }, new ArrayList<>()).extractSources();
        for (final String name : Peers.SOURCES) {
            assertTrue(Files.isRegularFile(work.resolve(name)), name);
        }
    }

    @Test
    void shouldRunTheC11Floor() {
        final Peers.Detection found = Peers.detect(System.getenv("PATH"));
        assertTrue(found.gcc().isPresent(), "gcc not found on the PATH: install it (" + INSTALL + ")");
        final Peers.Detection onlyGcc = new Peers.Detection(found.gcc(), absent(found.openMpi()),
            absent(found.mpich()));
        final List<String> notes = new ArrayList<>();
        final Peers peers = new Peers(work, line -> {
        }, notes);
        final List<Measurement> measurements = peers.runAll(onlyGcc, SIZES, ITERATIONS, 5, 2);
        assertEquals(Set.of("c11 floor 8", "c11 floor 1024", "c11 memcpy-bw 8", "c11 memcpy-bw 1024"),
            keys(measurements));
        assertEquals(2, notes.size(), "the two MPI libraries are skipped: " + notes);
        assertEquals(List.of(Peers.label(Rows.C11)), List.copyOf(peers.probes().keySet()), "probed before the run");
    }

    @Test
    void shouldProbeTheFloorForAStepOutsideTheHarness() {
        assertTrue(Peers.detect(System.getenv("PATH")).gcc().isPresent(),
            "gcc not found on the PATH: install it (" + INSTALL + ")");
        // A gate of 1 ns is never met: the probe waits its 1 s, then reports the floor it measured last.
        final List<String> log = new ArrayList<>();
        final FloorProbe floor = new FloorProbe(work, 1, 1, log::add);
        final java.util.OptionalDouble ns = floor.probe("notified-put");
        assertTrue(ns.isPresent() && ns.getAsDouble() > 0, String.valueOf(ns));
        assertTrue(log.stream().anyMatch(line -> line.contains("above the gate of 1 ns")), log.toString());
        final java.util.OptionalDouble after = floor.measure("notified-put after");
        assertTrue(after.isPresent() && after.getAsDouble() > 0, String.valueOf(after));
        final String note = floor.gateNote().orElseThrow();
        assertTrue(note.contains("1 of 1 probes") && note.contains("1 of them started their step still above it"),
            note);
    }

    @Test
    void shouldRunTheOpenMpiPeer() {
        runMpi(Rows.OPENMPI);
    }

    @Test
    void shouldRunTheMpichPeer() {
        runMpi(Rows.MPICH);
    }

    private void runMpi(final String impl) {
        final Peers.Detection found = Peers.detect(System.getenv("PATH"));
        final Peers.MpiTool mpi = impl.equals(Rows.OPENMPI) ? found.openMpi() : found.mpich();
        assertTrue(mpi.present(),
            mpi.missing().strip() + " not found on the PATH: install " + impl + " (" + INSTALL + ")");
        final Peers.Detection only = impl.equals(Rows.OPENMPI)
            ? new Peers.Detection(Optional.empty(), mpi, absent(found.mpich()))
            : new Peers.Detection(Optional.empty(), absent(found.openMpi()), mpi);
        final List<String> notes = new ArrayList<>();
        final List<Measurement> measurements = new Peers(work, line -> {
        }, notes).runAll(only, SIZES, ITERATIONS, 5, 2);
        final Set<String> expected = Set.of(impl + " send-recv 8", impl + " send-recv 1024", impl + " put-flush-flag 8",
            impl + " put-flush-flag 1024", impl + " load-store 8", impl + " load-store 1024", impl + " pscw 8",
            impl + " pscw 1024", impl + " fence 8", impl + " fence 1024", impl + " fetch-and-op 8",
            impl + " compare-and-swap 8", impl + " get 8", impl + " accumulate 8", impl + " lock-unlock 8",
            impl + " barrier 8", impl + " put-bw 8", impl + " put-bw 1024");
        assertEquals(expected, keys(measurements), notes.toString());
    }

    @Test
    void shouldBuildEveryCProgramWithBothMpis() {
        final Peers.Detection found = Peers.detect(System.getenv("PATH"));
        final List<String> notes = new ArrayList<>();
        final Peers peers = new Peers(work, line -> {
        }, notes);
        for (final Peers.MpiTool mpi : List.of(found.openMpi(), found.mpich())) {
            assertTrue(mpi.present(), mpi.missing().strip() + " not found on the PATH (" + INSTALL + ")");
            for (final String source : List.of("mpi_pingpong.c", "mpi_stencil.c", "mpi_tree.c", "mpi_cholesky.c",
                "mpi_sweep.c")) {
                assertTrue(peers.buildMpi(mpi, source, List.of()).isPresent(),
                    mpi.impl() + " " + source + ": " + notes);
            }
        }
    }

    @Test
    void shouldRunEveryCApplicationAndVerifyItsResult() {
        final Peers.MpiTool openMpi = openMpi();
        final List<String> notes = new ArrayList<>();
        final PeerApps apps = new PeerApps(new Peers(work, line -> {
        }, notes), openMpi, Duration.ofSeconds(120));
        for (final Application app : Application.values()) {
            final List<AppMeasurement> ms = apps.run(app, 2, app == Application.STENCIL ? 40 : 2,
                app == Application.CHOLESKY ? 8 : 5, 2, 0);
            assertEquals(
                app == Application.STENCIL
                    ? List.of("sendrecv", "putflush", "pscw", "fence")
                    : List.of("sendrecv", "putflush"),
                ms.stream().map(AppMeasurement::variant).toList(), app.id + ": " + notes);
            for (final AppMeasurement m : ms) {
                assertTrue(m.verified(), m.toString());
                assertEquals(Rows.OPENMPI, m.impl());
                assertEquals(2, m.throughputs().size());
            }
        }
        assertEquals(List.of(), notes);
    }

    @Test
    void shouldFailACApplicationThatComputesAWrongResult() {
        final Peers.MpiTool openMpi = openMpi();
        final List<String> notes = new ArrayList<>();
        final PeerApps apps = new PeerApps(new Peers(work, line -> {
        }, notes), openMpi, Duration.ofSeconds(120), List.of("-DRMA4J_WRONG_RESULT"));
        for (final Application app : Application.values()) {
            final List<AppMeasurement> ms = apps.run(app, 2, app == Application.STENCIL ? 40 : 2,
                app == Application.CHOLESKY ? 8 : 5, 1, 0);
            assertEquals(PeerApps.variants(app).size(), ms.size(), app.id + ": " + notes);
            assertTrue(ms.stream().noneMatch(AppMeasurement::verified), ms.toString());
        }
        assertEquals(3, notes.stream().filter(n -> n.contains("failed (exit 1)")).count(), notes.toString());
    }

    @Test
    void shouldRunTheSweepOnOpenMpi() {
        final List<String> notes = new ArrayList<>();
        final Peers peers = new Peers(work, line -> {
        }, notes);
        final List<SweepMeasurement> ms = new Sweeps(work, line -> {
        }, notes, Duration.ofSeconds(120), null).peer(peers, openMpi(), 3, 128, 10);
        assertEquals(List.of("fan-in-sendrecv", "fence", "barrier"), ms.stream().map(SweepMeasurement::row).toList(),
            notes.toString());
        assertTrue(ms.stream().allMatch(m -> m.ranks() == 3 && m.runsNs().size() == Sweeps.RUNS), ms.toString());
        assertEquals(128, Sweeps.perProducer(256, 3), "256 messages over 2 producers, a multiple of the batch");
        assertEquals(64, Sweeps.perProducer(10, 8));
        assertEquals(10, Sweeps.callsAt(10, 2), "the count given is the 2-rank count");
        assertEquals(6, Sweeps.callsAt(10, 3));
        assertEquals(250_000, Sweeps.callsAt(1_000_000, 8));
        assertEquals(1, Sweeps.callsAt(1, 8), "at least one call");
    }

    private static Peers.MpiTool openMpi() {
        final Peers.MpiTool mpi = Peers.detect(System.getenv("PATH")).openMpi();
        assertTrue(mpi.present(), mpi.missing().strip() + " not found on the PATH (" + INSTALL + ")");
        return mpi;
    }

    private static Peers.MpiTool absent(final Peers.MpiTool tool) {
        return new Peers.MpiTool(tool.impl(), tool.compiler(), tool.launcher(), Optional.empty(), Optional.empty());
    }

    private static Set<String> keys(final List<Measurement> measurements) {
        return measurements.stream().map(m -> m.impl() + " " + m.row() + " " + m.sizeBytes())
            .collect(Collectors.toSet());
    }
}
