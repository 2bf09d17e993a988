package org.rma4j;

/**
 * The window-surface contract with ranks as real JVM processes started through the launcher.
 */
class WindowSurfaceProcessModeTest extends WindowSurfaceContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, WindowSurfaceScenarios.class, scenario);
    }
}
