package org.rma4j.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.rma4j.examples.notified.Sync;

/**
 * The application runner's parsing of rank 0's lines, the applications' size checks and labels, and the
 * progress lines. The jobs themselves run in {@link HarnessTest}.
 */
class AppRunnerTest {
    @Test
    void shouldGroupTheRepetitionsOfEachVariant() {
        final List<String> lines = List.of(AppMain.line("notified", 1, new Application.Sample(1000, 0.5, true)),
            AppMain.line("sendrecv", 1, new Application.Sample(2000, 0.25, true)),
            AppMain.line("sendrecv", 2, new Application.Sample(4000, 0.125, false)),
            AppMain.line("notified", 2, new Application.Sample(500, 1.0, true)));
        final List<AppMeasurement> ms = AppRunner.measurements(Application.STENCIL,
            List.of(Sync.NOTIFIED, Sync.SEND_RECV), 2, 100, 3, lines, "test");
        assertEquals(2, ms.size());
        final AppMeasurement notified = ms.getFirst();
        assertEquals("notified", notified.variant());
        assertEquals(List.of(0.5, 1.0), notified.throughputs());
        assertEquals(List.of(1000.0, 500.0), notified.timesNs());
        assertEquals(0.75, notified.medianThroughput());
        assertEquals("100x100", notified.sizeLabel());
        assertEquals("GMOPS", notified.unit());
        assertTrue(notified.verified());
        assertFalse(ms.get(1).verified(), "one repetition of sendrecv failed");
    }

    @Test
    void shouldRejectAMissingVariantOrAMalformedLine() {
        final List<String> onlyNotified = List.of(AppMain.line("notified", 1, new Application.Sample(1, 1, true)));
        assertThrows(IllegalStateException.class, () -> AppRunner.measurements(Application.TREE_REDUCTION,
            List.of(Sync.NOTIFIED, Sync.PSCW), 2, 8, 10, onlyNotified, "test"));
        assertThrows(IllegalStateException.class, () -> AppRunner.measurements(Application.TREE_REDUCTION,
            List.of(Sync.NOTIFIED), 2, 8, 10, List.of("notified 1 2"), "test"));
    }

    @Test
    void shouldCallTheJitQuietWhenItCompiledForAtMostTwoPercentOfTheRound() {
        assertTrue(AppMain.jitQuiet(0, 1_000_000));
        assertTrue(AppMain.jitQuiet(20, 1_000_000_000L), "20 ms of a 1 s round");
        assertFalse(AppMain.jitQuiet(21, 1_000_000_000L));
        assertFalse(AppMain.jitQuiet(1, 10_000_000L), "1 ms of a 10 ms round");
    }

    @Test
    void shouldTakeTheMedianOfTheRepetitions() {
        assertEquals(2.0, AppMeasurement.median(List.of(3.0, 1.0, 2.0)));
        assertEquals(2.5, AppMeasurement.median(List.of(4.0, 1.0, 2.0, 3.0)));
    }

    @Test
    void shouldCheckSizesAsTheProgramsDo() {
        assertThrows(IllegalArgumentException.class, () -> Application.STENCIL.check(4, 5, 4), "m - 1 < ranks");
        Application.STENCIL.check(5, 5, 4);
        assertThrows(IllegalArgumentException.class, () -> Application.CHOLESKY.check(200, 32, 2), "N > 4096");
        assertThrows(IllegalArgumentException.class, () -> Application.TREE_REDUCTION.check(0, 10, 2));
        assertEquals("4x4 tiles of 32 (N=128)", Application.CHOLESKY.sizeLabel(4, 32));
        assertEquals(128.0, Application.CHOLESKY.plotX(4, 32));
        assertEquals(Sync.PSCW, Application.TREE_REDUCTION.variant("pscw"));
        assertThrows(IllegalArgumentException.class, () -> Application.CHOLESKY.variant("fence"));
    }

    @Test
    void shouldCountStepsAndEstimateTheTimeLeftFromTheStepsDone() {
        final AtomicLong now = new AtomicLong();
        final List<String> log = new ArrayList<>();
        final Progress progress = new Progress(3, log::add, now::get);
        assertEquals("== [1/3] java floor (elapsed 0:00)", progress.begin("java floor"));
        now.set(20_000_000_000L);
        assertEquals("== [2/3] C peer: Open MPI (elapsed 0:20, about 0:40 left)", progress.begin("C peer: Open MPI"));
        now.set(90_000_000_000L);
        progress.finish();
        assertEquals("== done: 2 steps in 1:30", log.getLast());
    }

    @Test
    void shouldNameBothProfiles() {
        assertEquals(Profile.QUICK, Profile.of("quick"));
        assertEquals(Profile.FULL, Profile.of("full"));
        assertThrows(IllegalArgumentException.class, () -> Profile.of("medium"));
    }
}
