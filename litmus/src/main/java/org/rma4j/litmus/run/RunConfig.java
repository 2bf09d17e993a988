package org.rma4j.litmus.run;

import java.nio.file.Path;

/**
 * How to run a litmus test on rma4j.
 *
 * @param iterations    runs of the program (litmus7's -s; the coreRMA paper used 10^4).
 * @param seed          seed of the random delays (each rank derives its own stream).
 * @param maxDelaySpins before each statement a rank spins a random 0..maxDelaySpins times
 *                      ({@code Thread.onSpinWait}) with probability 1/2, and up to 4x that before
 *                      each iteration, to widen the interleavings (coreRMA section 6.1); 0 disables.
 * @param mode          thread mode (ranks as threads of this JVM) or process mode (one JVM per rank).
 * @param baseDirectory where job directories are created, or null for rma4j's default (/dev/shm).
 */
public record RunConfig(int iterations, long seed, int maxDelaySpins, Mode mode, Path baseDirectory) {
    /** Default iterations, as in the coreRMA paper. */
    public static final int ITERATIONS_DEFAULT = 10_000;
    /** Default spin bound of the random delays. */
    public static final int DELAY_DEFAULT = 200;

    /** Where the ranks run. */
    public enum Mode {
        THREADS, PROCESSES
    }

    public RunConfig {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations=" + iterations + " must be >= 1");
        }
        if (maxDelaySpins < 0) {
            throw new IllegalArgumentException("maxDelaySpins=" + maxDelaySpins + " must be >= 0");
        }
    }

    /** @return the defaults in the given mode. */
    public static RunConfig defaults(final Mode mode) {
        return new RunConfig(ITERATIONS_DEFAULT, 1, DELAY_DEFAULT, mode, null);
    }

    public RunConfig withIterations(final int n) {
        return new RunConfig(n, seed, maxDelaySpins, mode, baseDirectory);
    }

    public RunConfig withMode(final Mode m) {
        return new RunConfig(iterations, seed, maxDelaySpins, m, baseDirectory);
    }
}
