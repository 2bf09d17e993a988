package org.rma4j.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.rma4j.examples.notified.Sync;

/**
 * The C peers of the applications ({@code mpi_stencil.c}, {@code mpi_tree.c}, {@code mpi_cholesky.c}):
 * each built with Open MPI's mpicc and run under its mpirun at the rank count and problem size of an rma4j
 * application job, with the same repetitions, in the variants {@link #variants}. Their result lines have the
 * format of {@link AppMain#line}, so they become {@link AppMeasurement}s of {@link Rows#OPENMPI}.
 */
final class PeerApps {
    /** The variants every C application implements, in the order it runs them. */
    static final List<Sync> VARIANTS = List.of(Sync.SEND_RECV, Sync.PUT_FLUSH);
    /** The stencil's C peer has the paper's active-target variants as well (PipelineChannels.Pscw and Fence). */
    static final List<Sync> STENCIL_VARIANTS = List.of(Sync.SEND_RECV, Sync.PUT_FLUSH, Sync.PSCW, Sync.FENCE);

    private final Peers peers;
    private final Peers.MpiTool mpi;
    private final Duration timeout;
    private final List<String> flags;

    /**
     * @param mpi     the MPI library (Open MPI), whose tools were found.
     * @param timeout longest time of one job.
     */
    PeerApps(final Peers peers, final Peers.MpiTool mpi, final Duration timeout) {
        this(peers, mpi, timeout, List.of());
    }

    /**
     * @param flags compiler flags besides {@code -O2} (the tests build with {@code -DRMA4J_WRONG_RESULT}).
     */
    PeerApps(final Peers peers, final Peers.MpiTool mpi, final Duration timeout, final List<String> flags) {
        this.peers = peers;
        this.mpi = mpi;
        this.timeout = timeout;
        this.flags = List.copyOf(flags);
    }

    /**
     * @return the variants the C peer of {@code app} runs, in that order.
     */
    static List<Sync> variants(final Application app) {
        return app == Application.STENCIL ? STENCIL_VARIANTS : VARIANTS;
    }

    /**
     * @return the C source of {@code app}.
     */
    static String source(final Application app) {
        return switch (app) {
            case STENCIL -> "mpi_stencil.c";
            case TREE_REDUCTION -> "mpi_tree.c";
            case CHOLESKY -> "mpi_cholesky.c";
        };
    }

    /**
     * Runs the C peer of {@code app} at {@code ranks} processes: untimed rounds of all its variants for
     * {@code warmupMs} (at least one), then {@code repeats} timed ones, as {@link AppMain} does.
     *
     * @return one measurement per variant; empty (with a note from {@link Peers}) if it could not be built or
     *         failed. A wrong result shows as a measurement that is not verified.
     */
    List<AppMeasurement> run(final Application app, final int ranks, final int size, final int work, final int repeats,
        final long warmupMs) {
        final Optional<Path> binary = peers.buildMpi(mpi, source(app), flags);
        if (binary.isEmpty()) {
            return List.of();
        }
        final Path out = peers.workDirectory().resolve("c-app-" + app.id + "-" + ranks + "-" + size + "-" + work);
        final String label = Peers.label(mpi.impl()) + " " + app.id + " (" + ranks + " ranks, "
            + app.sizeLabel(size, work) + ")";
        try {
            Files.deleteIfExists(out);
            final boolean succeeded = peers.runMpiProgram(Peers.mpirun(mpi, ranks, binary.get(),
                List.of(out.toString(), variants(app).stream().map(Sync::label).collect(Collectors.joining(",")),
                    Integer.toString(size), Integer.toString(work), Integer.toString(repeats),
                    Long.toString(warmupMs))),
                label, timeout);
            final List<String> lines = Files.exists(out) ? Files.readAllLines(out) : List.of();
            if (!succeeded && lines.isEmpty()) {
                return List.of();
            }
            return AppRunner.measurements(app, variants(app), ranks, size, work, lines, label).stream()
                .map(m -> m.withImpl(mpi.impl())).toList();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read " + out, e);
        } catch (final IllegalStateException e) {
            return List.of();
        }
    }
}
