package org.rma4j;

import org.rma4j.shm.WaitStrategy;

/**
 * The accumulate contract with ranks as threads of this JVM.
 */
class AccumulateThreadModeTest extends AccumulateContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Rma.callThreads(ranks, base.path(), WaitStrategy.defaultStrategy(), job -> {
            AccumulateScenarios.named(scenario).accept(job);
            return null;
        });
    }
}
