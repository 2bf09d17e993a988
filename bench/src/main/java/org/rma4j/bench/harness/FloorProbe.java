package org.rma4j.bench.harness;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Consumer;

/**
 * The harness's C11 floor probe and floor gate ({@link Peers#probe}, {@link Peers#floorGate}) for a step run outside
 * the harness: the profiling step ({@code org.rma4j.bench.profile.ProfileMain}) probes the floor before each job,
 * waits behind the gate if one is set, and shows the job's figure beside the floor it started with. Without gcc
 * nothing is probed.
 */
public final class FloorProbe {
    private final Peers peers;
    private final Optional<Path> gcc;

    /**
     * @param work        where the probe is built and run (the harness's C sources are extracted there).
     * @param gateNs      the gate: a probe above it waits, re-probing every 2 s; 0 for none.
     * @param waitSeconds the longest wait of one probe.
     * @param log         progress lines.
     */
    public FloorProbe(final Path work, final long gateNs, final long waitSeconds, final Consumer<String> log) {
        this.peers = new Peers(work, log, new ArrayList<>());
        this.gcc = Peers.detect(System.getenv("PATH")).gcc();
        peers.floorGate(gateNs, waitSeconds);
    }

    /**
     * @return the C11 floor's median half round trip at 8 B now (behind the gate), or empty without gcc or if the
     *         probe failed.
     */
    public OptionalDouble probe(final String label) {
        peers.probe(gcc, label);
        return recorded(label);
    }

    /**
     * @return the C11 floor now, measured once whatever the gate (e.g. after a job: the mode it ended in), or empty
     *         without gcc or if the probe failed.
     */
    public OptionalDouble measure(final String label) {
        peers.probe(gcc, label, false);
        return recorded(label);
    }

    private OptionalDouble recorded(final String label) {
        final Double floor = peers.probes().get(label);
        return floor == null ? OptionalDouble.empty() : OptionalDouble.of(floor);
    }

    /** @return the note on the gate: how many probes waited, and for how long. */
    public Optional<String> gateNote() {
        return peers.floorGateNote();
    }
}
