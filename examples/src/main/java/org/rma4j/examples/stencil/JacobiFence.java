package org.rma4j.examples.stencil;

import java.lang.foreign.MemorySegment;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.examples.stencil.StripLayout.Axis;
import org.rma4j.examples.stencil.StripStencil.Result;

/**
 * A 2-D Jacobi stencil with halo exchange by one-sided {@code put} in fence epochs: the classic first
 * program of MPI-3 RMA (active-target synchronization, MPI-3.1 section 11.5.1), written with rma4j.
 *
 * <h2>What it demonstrates</h2>
 * <ul>
 *   <li>{@link Rma#init()} and {@link RmaJob#allocate}: every rank exposes its strip of the grid in a window
 *   with displacement unit 8, so displacements count doubles. The same program runs on one machine under
 *   {@code rmarun} and across nodes under {@code mpirun} (README, "Running on several nodes").</li>
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
 * The same stencil with other synchronization: {@link JacobiPscw} (post / start / complete / wait
 * with the neighbours only), {@link JacobiPassive} (one lock_all epoch, flags for notification) and
 * {@link JacobiColumns} (vertical strips, column halos as vector datatypes). The common part is
 * {@link StripStencil}; the fence epochs are {@link FenceExchange}.
 *
 * <h2>Decomposition</h2>
 * The {@code ny} rows (border rows included) are split into horizontal strips, one per rank, of
 * {@code ny / ranks} or {@code ny / ranks + 1} consecutive rows. The window of a rank with {@code rows}
 * rows holds two buffers of {@code rows + 2} rows of {@code nx} doubles ({@link StripLayout}):
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
 * or across nodes ({@code bin/jacobi-across-nodes} runs it on two network namespaces):
 * <pre>
 * mpirun --hostfile HOSTS -np 4 --mca osc sm,pt2pt java --enable-native-access=ALL-UNNAMED \
 *     -cp examples/target/rma4j-examples.jar:runtime/target/lib/* org.rma4j.examples.stencil.JacobiFence
 * </pre>
 * Defaults: a 512 x 512 grid, 200 iterations; {@code ny} must be at least the number of ranks. Started
 * without {@code rmarun} (with the runtime on the class path and
 * {@code --enable-native-access=ALL-UNNAMED}) the program runs as a job of one rank. Rank 0 prints one
 * line, for example
 * <pre>
 * stencil jacobi-fence: grid 512x512, 200 iterations, 4 ranks, 123.4 ms, max |diff| vs sequential = 0.0e+00: VERIFIED
 * </pre>
 * and the job exits with status 1 (the line ends in FAILED) if the difference exceeds
 * {@link StripStencil#TOLERANCE}, 2 for bad arguments. The time is that of the parallel iterations,
 * halo exchange included, measured by rank 0 between two barriers.
 */
public final class JacobiFence {
    /** The stencil: horizontal strips, halos in fence epochs. */
    static final StripStencil STENCIL = new StripStencil("jacobi-fence", "JacobiFence", Axis.ROWS,
        (job, window, layout) -> new FenceExchange(window, layout));

    private JacobiFence() {
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
        return STENCIL.run(job, nx, ny, iterations);
    }

    /**
     * Runs the stencil on every rank, verifies at rank 0 and prints the summary line there.
     *
     * @param args {@code [nx [ny [iterations]]]}.
     */
    public static void main(final String[] args) {
        STENCIL.runProgram(args);
    }
}
