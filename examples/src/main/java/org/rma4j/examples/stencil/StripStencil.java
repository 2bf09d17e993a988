package org.rma4j.examples.stencil;

import java.lang.foreign.MemorySegment;
import java.util.Locale;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.examples.stencil.StripLayout.Axis;

/**
 * The parallel Jacobi stencil common to the examples of this package: a grid cut into strips, one per
 * rank ({@link StripLayout}), relaxed by the shared kernel ({@link Jacobi#relaxRow}) in a window of two
 * buffers, with the halos moved by a {@link HaloExchange} that each example chooses, then gathered at
 * rank 0 in a fence epoch and compared with {@link Jacobi#sequential}. Immutable; one instance serves
 * every rank and run.
 *
 * <p>A run at one rank:
 * <pre>
 *   allocate both buffers (displacement unit 8), initialize the owned points of both, barrier
 *   exchange.begin(); exchange(buffer 0, phase 0)
 *   for k in 0 .. iterations-1: relax buffer k%2 into buffer (k+1)%2; exchange(buffer (k+1)%2, phase k+1)
 *   exchange.end(); barrier                        (the time is measured between the two barriers)
 *   rank 0 gets every strip of buffer iterations%2; fence(NOSTORE | NOSUCCEED); free
 * </pre>
 * Within one phase no rank loads a location that a put writes and no location is written both by a
 * put and by a local store, as MPI-3.1 section 11.7 requires: puts reach halo lines only, local stores
 * owned points only.
 */
public final class StripStencil {
    /** Default number of columns. */
    public static final int DEFAULT_NX = 512;
    /** Default number of rows. */
    public static final int DEFAULT_NY = 512;
    /** Default number of iterations. */
    public static final int DEFAULT_ITERATIONS = 200;
    /** Largest accepted max |parallel - sequential|; the arithmetic is identical, so it is 0 in practice. */
    public static final double TOLERANCE = 1e-12;

    /** Exit status when the result does not match the sequential reference. */
    static final int EXIT_FAILED = 1;
    /** Exit status for bad arguments. */
    static final int EXIT_USAGE = 2;

    private final String name;
    private final String program;
    private final Axis axis;
    private final HaloExchange.Factory exchanges;

    /**
     * @param name      the name in the summary line, e.g. {@code jacobi-fence}.
     * @param program   the class name in usage messages, e.g. {@code JacobiFence}.
     * @param axis      how the grid is cut into strips.
     * @param exchanges the halo exchange of each rank and run.
     */
    StripStencil(final String name, final String program, final Axis axis, final HaloExchange.Factory exchanges) {
        this.name = name;
        this.program = program;
        this.axis = axis;
        this.exchanges = exchanges;
    }

    /**
     * The outcome of {@link #run} at one rank.
     *
     * @param grid         at rank 0 the gathered grid (row y at {@code [y * nx, (y + 1) * nx)}), null
     *                     at the other ranks.
     * @param elapsedNanos this rank's time for the iterations, between two barriers.
     */
    public record Result(double[] grid, long elapsedNanos) {
    }

    /**
     * @return the name in the summary line, e.g. {@code jacobi-fence}.
     */
    public String name() {
        return name;
    }

    /**
     * Runs the parallel stencil as the calling rank of {@code job} and gathers the grid at rank 0.
     * Collective: every rank of the job calls it with the same arguments. Creates and frees one window
     * (and whatever windows the halo exchange uses).
     *
     * @return the gathered grid at rank 0 and the timing.
     * @throws IllegalArgumentException if a side is below {@link Jacobi#MIN_SIDE}, iterations is
     *                                  negative, or there are fewer rows (columns for vertical
     *                                  strips) than ranks (at every rank, before any collective call).
     */
    public Result run(final RmaJob job, final int nx, final int ny, final int iterations) {
        Jacobi.checkProblem(nx, ny, iterations);
        final StripLayout mine = StripLayout.of(axis, job.rank(), job.size(), nx, ny);
        // NOTE: allocate, not allocateShared: the ranks only reach each other's strips by RMA calls, which also
        // work across nodes (mpirun), where a shared window is the standard's error.
        final Window window = job.allocate(mine.windowBytes(), Double.BYTES);
        final MemorySegment[] buffers = new MemorySegment[StripLayout.BUFFERS];
        for (int buffer = 0; buffer < StripLayout.BUFFERS; buffer++) {
            buffers[buffer] = mine.buffer(window, buffer);
            mine.initialize(buffers[buffer]);
        }
        final HaloExchange exchange = exchanges.open(job, window, mine);

        job.barrier();
        final long start = System.nanoTime();
        exchange.begin();
        exchange.exchange(0, 0, iterations == 0);
        for (int iteration = 0; iteration < iterations; iteration++) {
            final int current = iteration % StripLayout.BUFFERS;
            final int next = (iteration + 1) % StripLayout.BUFFERS;
            mine.relax(buffers[current], buffers[next]);
            exchange.exchange(next, iteration + 1, iteration == iterations - 1);
        }
        exchange.end();
        job.barrier();
        final long elapsedNanos = System.nanoTime() - start;

        final double[] grid = job.rank() == 0 ? mine.gather(window, iterations % StripLayout.BUFFERS) : null;
        window.fence(Rma.MODE_NOSTORE | Rma.MODE_NOSUCCEED);
        window.free();
        return new Result(grid, elapsedNanos);
    }

    /**
     * The program: runs the stencil on every rank, verifies at rank 0 and prints the summary line
     * there; exits with {@link #EXIT_FAILED} if the result differs from the sequential reference and
     * {@link #EXIT_USAGE} for bad arguments.
     *
     * @param args {@code [nx [ny [iterations]]]}.
     */
    void runProgram(final String[] args) {
        final RmaJob job = Rma.init();
        final int[] problem;
        try {
            problem = parseArguments(args);
            axis.checkSplit(problem[0], problem[1], job.size());
        } catch (final IllegalArgumentException e) {
            // Every rank sees the same arguments and job size, so every rank leaves here.
            if (job.rank() == 0) {
                System.err.println(program + ": " + e.getMessage());
                System.err.println(usage());
            }
            job.close();
            System.exit(EXIT_USAGE);
            return;
        }
        final int nx = problem[0];
        final int ny = problem[1];
        final int iterations = problem[2];

        // An exception here ends the JVM with a stack trace; the other ranks then see this rank fail.
        final Result result = run(job, nx, ny, iterations);
        boolean passed = true;
        if (job.rank() == 0) {
            final double maxDiff = Jacobi.maxAbsDiff(result.grid(), Jacobi.sequential(nx, ny, iterations));
            passed = verified(maxDiff);
            System.out.println(summary(nx, ny, iterations, job.size(), result.elapsedNanos(), maxDiff));
        }
        job.close();
        if (!passed) {
            System.exit(EXIT_FAILED);
        }
    }

    /**
     * @return the summary line rank 0 prints.
     */
    String summary(final int nx, final int ny, final int iterations, final int ranks, final long elapsedNanos,
        final double maxDiff) {
        return String.format(Locale.ROOT,
            "stencil %s: grid %dx%d, %d iterations, %d %s, %.1f ms, max |diff| vs sequential = %.1e: %s", name, nx, ny,
            iterations, ranks, ranks == 1 ? "rank" : "ranks", elapsedNanos / 1e6, maxDiff,
            verified(maxDiff) ? "VERIFIED" : "FAILED");
    }

    /**
     * @return the usage message.
     */
    String usage() {
        return "usage: " + program + " [nx [ny [iterations]]]  (defaults " + DEFAULT_NX + " " + DEFAULT_NY + " "
            + DEFAULT_ITERATIONS + ")";
    }

    /**
     * @return whether a max |parallel - sequential| passes ({@code <=} {@link #TOLERANCE}; NaN fails).
     */
    static boolean verified(final double maxDiff) {
        return maxDiff <= TOLERANCE;
    }

    /**
     * @return nx, ny, iterations from the arguments (missing ones take their defaults).
     * @throws IllegalArgumentException for too many or malformed arguments or an unusable problem.
     */
    static int[] parseArguments(final String[] args) {
        if (args.length > 3) {
            throw new IllegalArgumentException("too many arguments");
        }
        final int[] values = {DEFAULT_NX, DEFAULT_NY, DEFAULT_ITERATIONS};
        for (int i = 0; i < args.length; i++) {
            try {
                values[i] = Integer.parseInt(args[i].trim());
            } catch (final NumberFormatException e) {
                throw new IllegalArgumentException("'" + args[i] + "' is not an integer");
            }
        }
        Jacobi.checkProblem(values[0], values[1], values[2]);
        return values;
    }
}
