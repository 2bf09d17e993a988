package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.Tmpfs;

/**
 * Windows and allocations larger than the free space of the job's file system, on a private tmpfs of
 * {@link SharedMemorySpaceScenarios#TMPFS_BYTES} mounted for each test (the tests run as root), run by a
 * subclass per job mode. Each test runs a program of {@link SharedMemorySpaceScenarios} at both ranks.
 * Without the reservation of shared files at creation these calls succeed and the first store into the
 * memory ends the rank with SIGBUS.
 */
@Timeout(300)
abstract class SharedMemorySpaceContractTest {
    private Tmpfs tmpfs;

    /**
     * Runs the scenario at each of {@code ranks} ranks of a job under {@code base} and fails if any rank fails.
     */
    abstract void run(Path base, int ranks, String scenario) throws Exception;

    @BeforeEach
    void mount() throws IOException {
        tmpfs = Tmpfs.mount(SharedMemorySpaceScenarios.TMPFS_BYTES);
    }

    @AfterEach
    void unmount() throws IOException {
        try (Stream<Path> entries = Files.list(tmpfs.path())) {
            assertEquals(List.of(), entries.toList(), "the job left files behind");
        } finally {
            tmpfs.close();
        }
    }

    @Test
    void shouldRefuseAllocateSharedLargerThanTheFileSystemAtEveryRank() throws Exception {
        run(tmpfs.path(), 2, "allocateSharedLargerThanTheFileSystem");
    }

    @Test
    void shouldRefuseAllocateLargerThanTheFileSystemAtEveryRank() throws Exception {
        run(tmpfs.path(), 2, "allocateLargerThanTheFileSystem");
    }

    @Test
    void shouldRefuseCreateWhoseWindowFileDoesNotFitAtEveryRank() throws Exception {
        run(tmpfs.path(), 2, "createWithoutRoomForTheWindowFile");
    }

    @Test
    void shouldRefuseCreateDynamicWhoseWindowFileDoesNotFitAtEveryRank() throws Exception {
        run(tmpfs.path(), 2, "createDynamicWithoutRoomForTheWindowFile");
    }

    @Test
    void shouldRefuseAllocMemLargerThanTheFileSystem() throws Exception {
        run(tmpfs.path(), 2, "allocMemLargerThanTheFileSystem");
    }

    @Test
    void shouldRefuseAWindowAtCreationOnceEarlierWindowsHoldTheSpace() throws Exception {
        run(tmpfs.path(), 2, "windowAfterEarlierWindowsTookTheSpace");
    }
}
