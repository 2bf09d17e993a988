package org.rma4j.bench.harness;

import picocli.CommandLine.Option;

/**
 * The floor gate's options ({@link Peers#floorGate}), a picocli mixin of the harness and of the profiling step
 * ({@code org.rma4j.bench.profile.ProfileMain}).
 */
public final class FloorGateOptions {
    @Option(names = "--floor-gate-ns", description = "before each step (a Java scenario or C peer of the latency part, "
        + "an application job or its C peer, a sweep job of either side, a job of the profiling step), wait while the "
        + "C11 floor probe at 8 B is above this many ns, re-probing every 2 s (the VM's slow mode); 0: no gate "
        + "(default: ${DEFAULT-VALUE})")
    long ns;

    @Option(names = "--floor-gate-wait", description = "longest wait of one probe for --floor-gate-ns, seconds "
        + "(default: ${DEFAULT-VALUE})")
    long waitSeconds = 120;

    /** @return the gate in ns; 0 for none. */
    public long ns() {
        return ns;
    }

    /** @return the longest wait of one probe, seconds. */
    public long waitSeconds() {
        return waitSeconds;
    }

    /** @return the usage error of these options, or null if they are valid. */
    public String error() {
        return ns < 0 || waitSeconds < 0
            ? "--floor-gate-ns and --floor-gate-wait must be >= 0, not " + ns + " and " + waitSeconds
            : null;
    }
}
