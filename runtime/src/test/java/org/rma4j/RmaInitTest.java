package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * {@link Rma#init()} called twice: OTHER while the first job is open, the open job untouched; a new
 * job once it is closed. In this JVM (a job of one rank, no launcher) and in launched ranks.
 */
@Timeout(300)
class RmaInitTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    @Test
    void shouldRefuseASecondInitWhileTheJobOfThisProcessIsOpen() {
        final RmaJob first = Rma.init();
        try {
            assertInitRefused(first);
        } finally {
            first.close();
        }
        assertTrue(first.isClosed());

        final RmaJob second = Rma.init();
        try {
            assertNotSame(first, second);
            assertEquals(1, second.size());
            second.barrier();
        } finally {
            second.close();
        }
    }

    @Test
    void shouldRefuseASecondInitInEveryLaunchedRank() throws Exception {
        Scenarios.runProcesses(base, 2, RmaInitTest.class, "initTwice");
    }

    /** Run at every launched rank by {@link ScenarioMain}, which called {@link Rma#init()} already. */
    static void initTwice(final RmaJob job) {
        assertInitRefused(job);
        job.barrier();
        try (Window window = job.allocateShared(8, 8)) {
            window.fence(0);
            window.put(new long[] {job.rank() + 1L}, 0, 1, (job.rank() + 1) % job.size(), 0);
            window.fence(0);
            assertEquals((job.rank() + job.size() - 1) % job.size() + 1L,
                window.segment().get(ValueLayout.JAVA_LONG, 0));
        }
    }

    private static void assertInitRefused(final RmaJob job) {
        final RmaException e = assertThrows(RmaException.class, Rma::init);
        assertEquals(ErrorClass.OTHER, e.errorClass());
        assertTrue(e.getMessage().contains("init called twice"), e.getMessage());
        assertTrue(e.getMessage().contains("rank " + job.rank()), e.getMessage());
        assertFalse(job.isClosed(), "the refused init left the open job alone");
    }
}
