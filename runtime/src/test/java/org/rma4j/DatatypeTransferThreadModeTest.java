package org.rma4j;

import org.rma4j.shm.WaitStrategy;

/**
 * Typed put and get with ranks as threads of this JVM.
 */
class DatatypeTransferThreadModeTest extends DatatypeTransferContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Rma.callThreads(ranks, base.path(), WaitStrategy.defaultStrategy(), job -> {
            DatatypeScenarios.named(scenario).accept(job);
            return null;
        });
    }
}
