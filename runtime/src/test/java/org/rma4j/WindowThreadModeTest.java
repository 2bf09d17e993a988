package org.rma4j;

import org.rma4j.shm.WaitStrategy;

/**
 * The window contract with ranks as threads of this JVM.
 */
class WindowThreadModeTest extends WindowContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Rma.callThreads(ranks, base.path(), WaitStrategy.defaultStrategy(), job -> {
            WindowScenarios.named(scenario).accept(job);
            return null;
        });
    }
}
