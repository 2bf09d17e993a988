package org.rma4j.examples.stencil;

import java.lang.foreign.MemorySegment;
import java.util.Locale;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;

/**
 * A 2-D Jacobi stencil with halo exchange by one-sided {@code put} in fence epochs: the classic first
 * program of MPI-3 RMA (active-target synchronization, MPI-3.1 section 11.5.1), written with rma4j.
 *
 * <h2>What it demonstrates</h2>
 * <ul>
 *   <li>{@link Rma#init()} and {@link RmaJob#allocateShared}: every rank exposes its strip of the grid
 *   in a window with displacement unit 8, so displacements count doubles.</li>
 *   <li>Halo exchange with {@link Window#put(MemorySegment, int, long)}: each rank writes its first and
 *   last rows straight into its neighbours' halo rows; the neighbours make no call for it. A rank at
 *   the top or bottom of the grid uses {@link Rma#PROC_NULL} as its missing neighbour, so its puts there
 *   do nothing and the loop has no special cases (the MPI idiom).</li>
 *   <li>Fence epochs with assertions: the first fence asserts {@link Rma#MODE_NOPRECEDE} (no RMA
 *   before it), the one before the gather {@link Rma#MODE_NOPUT} (no puts will reach any window in
 *   that epoch), and the last {@link Rma#MODE_NOSTORE} | {@link Rma#MODE_NOSUCCEED} (no local stores
 *   since the previous fence, no RMA after it).</li>
 *   <li>Double buffering inside the window, so that one fence per iteration is enough: iteration k
 *   reads buffer k % 2 and writes buffer (k + 1) % 2, the owned rows by local stores and the
 *   neighbours' halo rows by put. Within an epoch no rank loads a location that a put writes, and
 *   no location is written both by a put and by a local store, as section 11.7 requires.</li>
 *   <li>A gather with {@link Window#get(double[], int, int, int, long)}: rank 0 reads every strip in
 *   one more fence epoch and compares the whole grid with {@link Jacobi#sequential}, run in the same
 *   JVM. Both use the {@link Jacobi#relaxRow} kernel, so the results agree bit for bit.</li>
 * </ul>
 *
 * <h2>Decomposition</h2>
 * The {@code ny} rows (border rows included) are split into horizontal strips, one per rank, of
 * {@code ny / ranks} or {@code ny / ranks + 1} consecutive rows. The window of a rank with {@code rows}
 * rows holds two buffers of {@code rows + 2} rows of {@code nx} doubles:
 * <pre>
 *   displacement (doubles)             buffer b, b = 0 or 1
 *   b*(rows+2)*nx                      row 0          top halo: the last row of rank - 1
 *   b*(rows+2)*nx + i*nx, i=1..rows    rows 1..rows   owned rows first .. first+rows-1 of the grid
 *   b*(rows+2)*nx + (rows+1)*nx        row rows+1     bottom halo: the first row of rank + 1
 * </pre>
 *
 * <h2>Running</h2>
 * <pre>
 * bin/rmarun -n 4 -cp examples/target/rma4j-examples.jar org.rma4j.examples.stencil.JacobiFence [nx ny iterations]
 * </pre>
 * Defaults: a 512 x 512 grid, 200 iterations; {@code ny} must be at least the number of ranks. Started
 * without {@code rmarun} (with the runtime on the class path and
 * {@code --enable-native-access=ALL-UNNAMED}) the program runs as a job of one rank. Rank 0 prints one
 * line, for example
 * <pre>
 * stencil jacobi-fence: grid 512x512, 200 iterations, 4 ranks, 123.4 ms, max |diff| vs sequential = 0.0e+00: VERIFIED
 * </pre>
 * and the job exits with status 1 (the line ends in FAILED) if the difference exceeds
 * {@link #TOLERANCE}, 2 for bad arguments. The time is that of the parallel iterations, halo exchange
 * included, measured by rank 0 between two barriers.
 */
public final class JacobiFence {
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

    private static final String USAGE = "usage: JacobiFence [nx [ny [iterations]]]  (defaults " + DEFAULT_NX + " "
        + DEFAULT_NY + " " + DEFAULT_ITERATIONS + ")";
    /** Two buffers: iteration k reads buffer k % 2 and writes the other. */
    private static final int BUFFERS = 2;
    /** One halo row above and one below the owned rows. */
    private static final int HALO_ROWS = 2;

    private JacobiFence() {
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
     * The rows of the grid one rank owns: rows {@code first .. first + rows - 1}.
     */
    record Strip(int first, int rows) {
        /**
         * @return the strip of {@code rank}: {@code ny} rows split as evenly as possible, the first
         *         {@code ny % ranks} ranks taking one row more.
         */
        static Strip of(final int rank, final int ranks, final int ny) {
            final int base = ny / ranks;
            final int extra = ny % ranks;
            return new Strip(rank * base + Math.min(rank, extra), base + (rank < extra ? 1 : 0));
        }

        /**
         * @return the displacement, in doubles, of local row {@code row} (0 = top halo) of
         *         {@code buffer} in the window of the rank that owns this strip.
         */
        long disp(final int buffer, final int row, final int nx) {
            return ((long)buffer * (rows + HALO_ROWS) + row) * nx;
        }

        /**
         * @return the bytes of one buffer: the owned rows and the two halo rows.
         */
        long bufferBytes(final int nx) {
            return (long)(rows + HALO_ROWS) * nx * Double.BYTES;
        }
    }

    /**
     * Runs the parallel stencil as the calling rank of {@code job} and gathers the grid at rank 0.
     * Collective: every rank of the job calls it with the same arguments. Creates and frees one window.
     *
     * @return the gathered grid at rank 0 and the timing.
     * @throws IllegalArgumentException if a side is below {@link Jacobi#MIN_SIDE}, iterations is
     *                                  negative, or there are fewer rows than ranks (at every rank,
     *                                  before any collective call).
     */
    public static Result run(final RmaJob job, final int nx, final int ny, final int iterations) {
        Jacobi.checkProblem(nx, ny, iterations);
        final int rank = job.rank();
        final int ranks = job.size();
        if (ny < ranks) {
            throw new IllegalArgumentException("ny=" + ny + " rows cannot be split among " + ranks + " ranks");
        }
        final Strip mine = Strip.of(rank, ranks, ny);
        final int up = rank == 0 ? Rma.PROC_NULL : rank - 1;
        final int down = rank == ranks - 1 ? Rma.PROC_NULL : rank + 1;
        // Where this rank's first row goes (the bottom halo of rank up) and its last row (the top halo
        // of rank down), per buffer. The displacement given with PROC_NULL is not used.
        final long[] toUp = new long[BUFFERS];
        final long[] toDown = new long[BUFFERS];
        for (int buffer = 0; buffer < BUFFERS; buffer++) {
            if (up != Rma.PROC_NULL) {
                final Strip above = Strip.of(up, ranks, ny);
                toUp[buffer] = above.disp(buffer, above.rows() + 1, nx);
            }
            if (down != Rma.PROC_NULL) {
                toDown[buffer] = Strip.of(down, ranks, ny).disp(buffer, 0, nx);
            }
        }

        final long bufferBytes = mine.bufferBytes(nx);
        final Window window = job.allocateShared(BUFFERS * bufferBytes, Double.BYTES);
        final MemorySegment[] buffers = new MemorySegment[BUFFERS];
        for (int buffer = 0; buffer < BUFFERS; buffer++) {
            buffers[buffer] = window.segment().asSlice(buffer * bufferBytes, bufferBytes);
            // Owned rows of both buffers: border rows are never rewritten, so both must hold them.
            for (int row = 1; row <= mine.rows(); row++) {
                Jacobi.initializeRow(buffers[buffer], row, mine.first() + row - 1, nx, ny);
            }
        }
        final long rowBytes = (long)nx * Double.BYTES;

        job.barrier();
        final long start = System.nanoTime();
        // Local stores above are complete at every rank after this fence; no RMA call precedes it.
        window.fence(Rma.MODE_NOPRECEDE);
        exchange(window, buffers[0], 0, mine, rowBytes, up, toUp, down, toDown);
        window.fence(iterations == 0 ? Rma.MODE_NOPUT : 0);
        for (int iteration = 0; iteration < iterations; iteration++) {
            final int current = iteration % BUFFERS;
            final int next = (iteration + 1) % BUFFERS;
            for (int row = 1; row <= mine.rows(); row++) {
                if (Jacobi.isInteriorRow(mine.first() + row - 1, ny)) {
                    Jacobi.relaxRow(buffers[current], buffers[next], row, nx);
                }
            }
            exchange(window, buffers[next], next, mine, rowBytes, up, toUp, down, toDown);
            // Completes this iteration's puts everywhere; the epoch it opens serves the next iteration,
            // or after the last one the gather, in which no put reaches any window.
            window.fence(iteration == iterations - 1 ? Rma.MODE_NOPUT : 0);
        }
        job.barrier();
        final long elapsedNanos = System.nanoTime() - start;

        double[] grid = null;
        if (rank == 0) {
            final int last = iterations % BUFFERS;
            grid = new double[nx * ny];
            for (int target = 0; target < ranks; target++) {
                final Strip strip = Strip.of(target, ranks, ny);
                window.get(grid, strip.first() * nx, strip.rows() * nx, target, strip.disp(last, 1, nx));
            }
        }
        window.fence(Rma.MODE_NOSTORE | Rma.MODE_NOSUCCEED);
        window.free();
        return new Result(grid, elapsedNanos);
    }

    /**
     * Puts the first and last owned rows of {@code segment} (this rank's buffer {@code buffer}) into the
     * halo rows of the same buffer at the neighbours.
     */
    private static void exchange(
        final Window window, final MemorySegment segment, final int buffer, final Strip mine, final long rowBytes,
        final int up, final long[] toUp, final int down, final long[] toDown) {
        window.put(segment.asSlice(rowBytes, rowBytes), up, toUp[buffer]);
        window.put(segment.asSlice(mine.rows() * rowBytes, rowBytes), down, toDown[buffer]);
    }

    /**
     * @return whether a max |parallel - sequential| passes ({@code <=} {@link #TOLERANCE}; NaN fails).
     */
    static boolean verified(final double maxDiff) {
        return maxDiff <= TOLERANCE;
    }

    /**
     * @return the summary line rank 0 prints.
     */
    static String summary(
        final int nx, final int ny, final int iterations, final int ranks, final long elapsedNanos, final double maxDiff) {
        return String.format(Locale.ROOT,
            "stencil jacobi-fence: grid %dx%d, %d iterations, %d %s, %.1f ms, max |diff| vs sequential = %.1e: %s",
            nx, ny, iterations, ranks, ranks == 1 ? "rank" : "ranks", elapsedNanos / 1e6, maxDiff,
            verified(maxDiff) ? "VERIFIED" : "FAILED");
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

    /**
     * Runs the stencil on every rank, verifies at rank 0 and prints the summary line there.
     *
     * @param args {@code [nx [ny [iterations]]]}.
     */
    public static void main(final String[] args) {
        final RmaJob job = Rma.init();
        final int[] problem;
        try {
            problem = parseArguments(args);
            if (problem[1] < job.size()) {
                throw new IllegalArgumentException("ny=" + problem[1] + " is below the number of ranks " + job.size());
            }
        } catch (final IllegalArgumentException e) {
            // Every rank sees the same arguments and job size, so every rank leaves here.
            if (job.rank() == 0) {
                System.err.println("JacobiFence: " + e.getMessage());
                System.err.println(USAGE);
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
}
