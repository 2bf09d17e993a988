package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A rank's wait state in its control-file row: published, read by another mapping, cleared, and
 * described for the launcher's reports.
 */
class WaitStateTest {
    private Path directory;
    private ControlFile control;
    private ControlFile reader;

    @BeforeEach
    void createControlFile() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "wait-state-test");
        control = ControlFile.create(directory.resolve("control"), 3, ProcessHandle.current().pid());
        reader = ControlFile.open(directory.resolve("control"));
    }

    @AfterEach
    void removeControlFile() throws IOException {
        reader.close();
        control.close();
        Files.deleteIfExists(directory.resolve("control"));
        Files.deleteIfExists(directory);
    }

    @Test
    void shouldReadNothingBeforeARankPublishes() {
        for (int rank = 0; rank < 3; rank++) {
            assertNull(reader.waitState(rank));
        }
    }

    @Test
    void shouldReadWhatARankPublishedFromAnotherMappingUntilItClears() {
        final WaitState fence = new WaitState(WaitState.Call.FENCE, 0, -1, 7, 1_700_000_000_123L);
        final WaitState lock = new WaitState(WaitState.Call.LOCK, 2, 1, 0, 1_700_000_000_456L);
        control.publishWait(1, fence);
        control.publishWait(2, lock);

        assertNull(reader.waitState(0));
        assertEquals(fence, reader.waitState(1));
        assertEquals(lock, reader.waitState(2));

        control.clearWait(1);
        assertNull(reader.waitState(1));
        assertEquals(lock, reader.waitState(2));
    }

    @Test
    void shouldLeaveTheRanksCallWordsAlone() {
        control.publishCall(1, 0, 0x1234L);
        control.publishCall(1, 1, 0x5678L);
        control.publishWait(1, new WaitState(WaitState.Call.BARRIER, -1, -1, 3, 1L));
        assertEquals(0x1234L, reader.call(1, 0));
        assertEquals(0x5678L, reader.call(1, 1));
        assertEquals(RankState.EMPTY, reader.state(1));
    }

    @Test
    void shouldDescribeEachKindOfWait() {
        assertEquals("fence on window 0 (collective call #7)",
            new WaitState(WaitState.Call.FENCE, 0, -1, 7, 0).describe());
        assertEquals("barrier (collective call #2)", new WaitState(WaitState.Call.BARRIER, -1, -1, 2, 0).describe());
        assertEquals("lock on window 1, target 2", new WaitState(WaitState.Call.LOCK, 1, 2, 0, 0).describe());
        assertEquals("start on window 0, waiting for the post of rank 1",
            new WaitState(WaitState.Call.START, 0, 1, 0, 0).describe());
        assertEquals("wait on window 3, waiting for the complete of rank 0",
            new WaitState(WaitState.Call.WAIT, 3, 0, 0, 0).describe());
    }

    /**
     * The codes are stored in control files (0: not blocked): a change of code breaks the launcher's reports
     * of ranks that map a file of the same layout version.
     */
    @Test
    void shouldKeepTheOnDiskCodesOfTheWaitCalls() {
        assertEquals(0, WaitState.Call.NONE);
        assertEquals(1, WaitState.Call.BARRIER.code());
        assertEquals(2, WaitState.Call.CREATE.code());
        assertEquals(3, WaitState.Call.CLOSE.code());
        assertEquals(4, WaitState.Call.FENCE.code());
        assertEquals(5, WaitState.Call.FREE.code());
        assertEquals(6, WaitState.Call.LOCK.code());
        assertEquals(7, WaitState.Call.START.code());
        assertEquals(8, WaitState.Call.WAIT.code());
        assertEquals(9, WaitState.Call.LOCK_ALL.code());
        assertEquals(10, WaitState.Call.NOTIFY_WAIT.code());
        assertEquals(11, WaitState.Call.RECV.code());
        assertEquals(12, WaitState.Call.SEND.code());
        assertEquals(32, WaitState.Call.COMM_CREATE.code());
        assertEquals(33, WaitState.Call.COMM_FREE.code());
        assertEquals(34, WaitState.Call.BCAST.code());
        assertEquals(35, WaitState.Call.GATHER.code());
        assertEquals(36, WaitState.Call.SCATTER.code());
        assertEquals(37, WaitState.Call.ALLGATHER.code());
        assertEquals(38, WaitState.Call.ALLTOALL.code());
        assertEquals(39, WaitState.Call.REDUCE.code());
        assertEquals(40, WaitState.Call.ALLREDUCE.code());
        assertEquals(41, WaitState.Call.REDUCE_SCATTER.code());
        assertEquals(42, WaitState.Call.SCAN.code());
        assertEquals(43, WaitState.Call.EXSCAN.code());
        assertEquals(24, WaitState.Call.values().length, "a new call needs a new code and a test line here");
        assertEquals(WaitState.Call.values().length,
            Arrays.stream(WaitState.Call.values()).mapToInt(WaitState.Call::code).distinct().count());
    }

    @Test
    void shouldDecodeEveryCodeAndNothingForUnknownCodes() {
        for (final WaitState.Call call : WaitState.Call.values()) {
            assertSame(call, WaitState.Call.of(call.code()));
        }
        for (final int code : new int[] {WaitState.Call.NONE, -1, 13, 31, 44, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            assertNull(WaitState.Call.of(code));
        }
    }
}
