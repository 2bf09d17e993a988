package org.rma4j.bench.harness;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.examples.notified.PingPong;
import org.rma4j.examples.notified.Sync;

/**
 * Main class of each rank JVM of a loaded ping-pong job ({@link LoadedSection}): the PingPong example of
 * {@code org.rma4j.examples.notified} as it is, through its public {@link PingPong#run}, with the JVM's
 * default settings.
 *
 * <p>usage: {@code PingPongMain OUT_FILE ITERATIONS SIZES_CSV}. Runs the send/recv and the notified
 * variants at every size, each first untimed with ITERATIONS round trips (a warm JIT, as the peer's warm-up of
 * as many round trips), then timed (after the example's own warm-up, a tenth of ITERATIONS); rank 0 appends one
 * line per variant and size to OUT_FILE ({@link SampleFile}): the row ({@code send-recv},
 * {@code notified-put}), the size, the example's median and mean half round trips in ns. Exit status 1 if a payload
 * came back wrong.
 */
public final class PingPongMain {
    /** The example's variants the loaded section runs, and their rows. */
    static final List<Sync> VARIANTS = List.of(Sync.SEND_RECV, Sync.NOTIFIED);

    private PingPongMain() {
    }

    /**
     * @return the harness row of an example variant.
     */
    static String row(final Sync sync) {
        return sync == Sync.NOTIFIED ? "notified-put" : "send-recv";
    }

    public static void main(final String[] args) {
        if (args.length != 3) {
            System.err.println("usage: PingPongMain OUT_FILE ITERATIONS SIZES_CSV");
            System.exit(2);
        }
        final Path out = Path.of(args[0]);
        final int iterations = Integer.parseInt(args[1]);
        final long[] sizes = Arrays.stream(args[2].split(",")).mapToLong(Long::parseLong).toArray();
        long errors = 0;
        try (RmaJob job = Rma.init()) {
            for (final Sync sync : VARIANTS) {
                PingPong.run(job, sync, iterations, sizes); // untimed: the warm-up
                for (final PingPong.Measurement m : PingPong.run(job, sync, iterations, sizes)) {
                    System.out.println(m.line());
                    SampleFile.append(out, row(sync), m.sizeBytes(),
                        new double[] {m.medianHalfRoundTripNs(), m.meanHalfRoundTripNs()}, 2);
                    errors += m.errors();
                }
            }
        }
        if (errors > 0) {
            System.exit(1);
        }
    }
}
