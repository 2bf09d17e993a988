package org.rma4j;

import java.nio.file.Path;

/**
 * The shared memory space contract with ranks as real JVM processes started through the launcher with
 * the tmpfs as base directory (what {@code rmarun --shm-dir} gives them).
 */
class SharedMemorySpaceProcessModeTest extends SharedMemorySpaceContractTest {
    @Override
    void run(final Path base, final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, SharedMemorySpaceScenarios.class, scenario);
    }
}
