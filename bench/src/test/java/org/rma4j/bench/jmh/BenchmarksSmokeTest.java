package org.rma4j.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rma4j.shm.JobDirectory;

/**
 * Runs each benchmark's setup, operation and teardown directly, without JMH, to show that they work
 * and leave nothing behind. No timing is asserted.
 */
class BenchmarksSmokeTest {
    private static final int CALLS = 3;

    private List<Path> before;

    @BeforeEach
    void recordBaseDirectories() throws IOException {
        before = benchBaseDirectories();
    }

    @AfterEach
    void shouldLeaveNoBaseDirectory() throws IOException {
        final List<Path> after = benchBaseDirectories();
        after.removeAll(before);
        assertEquals(List.of(), after, "benchmark base directories left under " + JobDirectory.defaultBase());
    }

    @Test
    void shouldPutAndGetAtEverySize() {
        for (final String size : List.of("8", "64", "1024", "65536", "1048576")) {
            final PutGetBenchmark benchmark = new PutGetBenchmark();
            benchmark.sizeBytes = Integer.parseInt(size);
            benchmark.setup();
            try {
                for (int i = 0; i < CALLS; i++) {
                    benchmark.put();
                    benchmark.get();
                    benchmark.putArray();
                    benchmark.getArray();
                }
            } finally {
                benchmark.teardown();
            }
        }
    }

    @Test
    void shouldFlushAndSync() {
        final FlushBenchmark benchmark = new FlushBenchmark();
        benchmark.setup();
        try {
            for (int i = 0; i < CALLS; i++) {
                benchmark.putFlush8();
                benchmark.flush();
                benchmark.flushAll();
                benchmark.sync();
            }
        } finally {
            benchmark.teardown();
        }
    }

    @Test
    void shouldRunEachAtomicOperation() {
        final AtomicsBenchmark benchmark = new AtomicsBenchmark();
        benchmark.setup();
        try {
            for (int i = 0; i < CALLS; i++) {
                assertEquals(i, benchmark.fetchAndOpSum(), "fetchAndOp SUM returns the count so far");
                assertEquals(i, benchmark.compareAndSwap(), "compareAndSwap succeeds every time");
                benchmark.accumulateSum();
                benchmark.getAccumulateSum();
            }
            assertEquals(CALLS, benchmark.expected());
        } finally {
            benchmark.teardown();
        }
    }

    @Test
    void shouldLockAndUnlock() {
        final LockBenchmark benchmark = new LockBenchmark();
        benchmark.setup();
        try {
            for (int i = 0; i < CALLS; i++) {
                benchmark.lockUnlockShared();
                benchmark.lockUnlockExclusive();
                benchmark.lockAllUnlockAll();
            }
        } finally {
            benchmark.teardown();
        }
    }

    @Test
    void shouldRunFenceCyclesAndStopThePartner() {
        final FenceBenchmark benchmark = new FenceBenchmark();
        benchmark.setup();
        try {
            for (int i = 0; i < CALLS; i++) {
                benchmark.fence();
                benchmark.putFence8();
            }
        } finally {
            benchmark.teardown();
        }
        assertEquals(1 + 2 * CALLS + 1, benchmark.cycles(), "setup's fence, the calls and teardown's last fence");
    }

    @Test
    void shouldRunPscwCyclesAndStopThePartner() {
        final PscwBenchmark benchmark = new PscwBenchmark();
        benchmark.setup();
        try {
            for (int i = 0; i < CALLS; i++) {
                benchmark.pscwCycle();
                benchmark.pscwPut8();
            }
        } finally {
            benchmark.teardown();
        }
        assertEquals(2 * CALLS + 1, benchmark.cycles(), "the calls and teardown's last cycle");
    }

    @Test
    void shouldStopAPartnerThatNeverRanACycle() {
        final PscwBenchmark benchmark = new PscwBenchmark();
        benchmark.setup();
        benchmark.teardown();
        assertEquals(1, benchmark.cycles(), "only teardown's cycle");
    }

    private static List<Path> benchBaseDirectories() throws IOException {
        try (Stream<Path> entries = Files.list(JobDirectory.defaultBase())) {
            return entries.filter(p -> p.getFileName().toString().startsWith(TwoRankJob.BASE_PREFIX))
                .collect(Collectors.toCollection(ArrayList::new));
        }
    }
}
