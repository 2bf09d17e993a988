package org.rma4j;

import java.nio.file.Path;

/**
 * The shared memory space contract with ranks as threads of this JVM.
 */
class SharedMemorySpaceThreadModeTest extends SharedMemorySpaceContractTest {
    @Override
    void run(final Path base, final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, SharedMemorySpaceScenarios.class, scenario);
    }
}
