package org.rma4j;

/**
 * The window-surface contract with ranks as threads of this JVM.
 */
class WindowSurfaceThreadModeTest extends WindowSurfaceContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, WindowSurfaceScenarios.class, scenario);
    }
}
