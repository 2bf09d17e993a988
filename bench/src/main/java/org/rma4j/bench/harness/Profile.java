package org.rma4j.bench.harness;

import java.util.List;

/**
 * The harness's two profiles: the values every option takes that the command line does not set.
 *
 * <ul>
 *   <li>{@link #QUICK}: a few minutes on 2 cores. Three payload sizes, a quarter of the warmup, fewer
 *   timed round trips and batches; the applications at one small size each, 3 repetitions after 1 s untimed; a
 *   tenth of the
 *   sweep's messages and calls; 20 000 loaded round trips.</li>
 *   <li>{@link #FULL}: the paper's 1000 timed round trips per size, 8 B to 1 MiB, after up to 200 000
 *   untimed ones, the applications at three sizes each, 5 repetitions after 3 s untimed, and everything in 3
 *   rounds.</li>
 * </ul>
 * The warmup is long for small sizes because each new size changes the branches the rank's code takes:
 * the JIT deoptimizes and recompiles, and a compilation still running during the timed round trips
 * shows as a slow size (seen with 20 000: the 64 B notified put, first size past the inline limit, at
 * 2.5x its neighbours for all 1000 samples).
 * Both run every Java scenario, every C peer found, every application and the sweep at 2, 4 and 8 ranks,
 * and the loaded section beside 4 busy processes.
 *
 * @param id                the name on the command line.
 * @param sizes             payload sizes in bytes.
 * @param iterations        timed round trips (or op batches) per size.
 * @param warmup            untimed ones before them.
 * @param bwSamples         timed batches per bandwidth size.
 * @param appRanks          rank counts of the application jobs.
 * @param appRepeats        timed repetitions of each application run (the median is kept).
 * @param appWarmupMs       untimed time of each application job before its timed repetitions ({@link AppMain}).
 * @param stencilGrids      grid sides m of the pipelined stencil (m x m grids).
 * @param stencilPasses     timed passes of each stencil run.
 * @param treeLengths       vector lengths (longs) of the tree reduction.
 * @param treeRounds        timed rounds of each tree reduction run.
 * @param choleskyTiles     tiles per side of the Cholesky factorization.
 * @param choleskyTileSize  tile side of the Cholesky factorization.
 * @param rounds            times the latency, operation and bandwidth part and the application part run;
 *                          each cell keeps its best round (see {@link Harness#bestOfRounds},
 *                          {@link AppMeasurement#bestOfRounds}).
 * @param sweepRanks        rank counts of the throughput and scale sweep.
 * @param sweepMessages     8-byte messages the consumer of the fan-in receives per pass.
 * @param sweepCalls        fence and barrier calls per pass at 2 ranks ({@link Sweeps#callsAt}).
 * @param backgroundLoad    busy processes of the loaded section.
 * @param loadedIterations  timed round trips of each loaded ping-pong.
 */
record Profile(String id, List<Long> sizes, int iterations, int warmup, int bwSamples, List<Integer> appRanks,
    int appRepeats, long appWarmupMs, List<Integer> stencilGrids, int stencilPasses, List<Integer> treeLengths,
    int treeRounds, List<Integer> choleskyTiles, int choleskyTileSize, int rounds, List<Integer> sweepRanks,
    int sweepMessages, int sweepCalls, int backgroundLoad, int loadedIterations) {

    static final Profile QUICK = new Profile("quick", List.of(8L, 1024L, 65536L), 300, 50_000, 20, List.of(2, 4, 8), 3,
        1_000, List.of(500), 5, List.of(1024), 300, List.of(8), 32, 1, List.of(2, 4, 8), 20_000, 2_000, 4, 20_000);

    static final Profile FULL = new Profile("full", List.of(8L, 64L, 1024L, 65536L, 1048576L), 1000, 200_000, 100,
        List.of(2, 4, 8), 5, 3_000, List.of(1000, 2000, 4000), 5, List.of(8, 1024, 16384), 1000, List.of(8, 16, 32), 32,
        3, List.of(2, 4, 8), 8_000_000, 1_000_000, 4, 200_000);

    /**
     * @throws IllegalArgumentException for an unknown profile.
     */
    static Profile of(final String id) {
        return switch (id) {
            case "quick" -> QUICK;
            case "full" -> FULL;
            default -> throw new IllegalArgumentException("unknown profile " + id + "; known: quick, full");
        };
    }
}
