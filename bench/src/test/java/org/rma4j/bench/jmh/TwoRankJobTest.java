package org.rma4j.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.rma4j.Window;

class TwoRankJobTest {
    @Test
    void shouldHandRankZeroOfATwoRankJobToTheCaller() {
        try (TwoRankJob job = TwoRankJob.start(64, TwoRankJob.IDLE)) {
            assertEquals(TwoRankJob.ORIGIN, job.job().rank());
            assertEquals(2, job.job().size());
            assertEquals(64, job.window().size());
        }
    }

    @Test
    void shouldLetThePartnerSeeWhatRankZeroPutBeforeClose() {
        final AtomicLong seen = new AtomicLong(-1);
        final TwoRankJob job = TwoRankJob.start(64, window -> {
            // Rank 1 polls its own window until rank 0's put arrives.
            final MemorySegment mine = window.segment();
            long value;
            while ((value = (long)ValueLayout.JAVA_LONG.varHandle().getAcquire(mine, 0L)) == 0) {
                Thread.onSpinWait();
            }
            seen.set(value);
        });
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment value = arena.allocate(ValueLayout.JAVA_LONG);
            value.set(ValueLayout.JAVA_LONG, 0, 42L);
            final Window window = job.window();
            window.lockAll();
            window.put(value, TwoRankJob.TARGET, 0);
            window.flush(TwoRankJob.TARGET);
            window.unlockAll();
        } finally {
            job.close();
        }
        assertEquals(42, seen.get());
    }

    @Test
    void shouldReportAFailedPartnerOnClose() {
        final TwoRankJob job = TwoRankJob.start(64, window -> {
            throw new IllegalStateException("partner failed on purpose");
        });
        final IllegalStateException e = assertThrows(IllegalStateException.class, job::close);
        assertTrue(e.getMessage().contains("a rank failed"), e.getMessage());
    }

    @Test
    void shouldBeIdempotentOnClose() {
        final TwoRankJob job = TwoRankJob.start(64, TwoRankJob.IDLE);
        job.close();
        job.close();
    }
}
