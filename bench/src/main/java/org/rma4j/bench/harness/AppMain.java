package org.rma4j.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.examples.notified.Sync;

/**
 * Main class of each rank JVM of an application job (started by {@link AppRunner} through the launcher).
 *
 * <p>usage: {@code AppMain APP OUT_FILE VARIANTS_CSV SIZE WORK REPEATS WARMUP_MS}. Every rank runs untimed
 * rounds of every variant ({@link #warmUp}: at least one, for at least WARMUP_MS, and on while the JIT is busy, up
 * to {@value #WARMUP_LIMIT} times as long), then REPEATS timed rounds; each round runs every variant once, starting
 * one variant later than the round before, so that no variant always runs first or right after the same one. Rank 0
 * appends one line per timed run to OUT_FILE ({@link #line}) and prints it.
 *
 * <p>The untimed rounds are what take the rank JVMs to their steady state: the JIT compiles a variant's path after
 * some ten thousand calls, and on 2 cores its compiler threads share the cores with the ranks, so a job of the
 * paper's 1000 rounds would otherwise time each variant's code partly interpreted, the longest paths (notified,
 * send / recv) the most. With 8 ranks on 2 cores the 8 JVMs' compilers took half of the CPU time of a 300-pass
 * stencil job (a profile of every thread). The first calls of a job are the cold-start report's subject.
 */
public final class AppMain {
    /** The longest untimed time, in multiples of WARMUP_MS, that a JIT still compiling may add. */
    static final int WARMUP_LIMIT = 10;
    /** The JIT is quiet when the busiest rank compiled for at most this share of the last untimed round. */
    static final double QUIET_JIT_SHARE = 0.02;

    private AppMain() {
    }

    public static void main(final String[] args) {
        if (args.length != 7) {
            System.err.println("usage: AppMain APP OUT_FILE VARIANTS_CSV SIZE WORK REPEATS WARMUP_MS");
            System.exit(2);
        }
        final Application app = Application.of(args[0]);
        final Path out = Path.of(args[1]);
        final List<Sync> variants = Arrays.stream(args[2].split(",")).map(app::variant).toList();
        final int size = Integer.parseInt(args[3]);
        final int work = Integer.parseInt(args[4]);
        final int repeats = Integer.parseInt(args[5]);
        final long warmupNs = Long.parseLong(args[6]) * 1_000_000L;
        try (RmaJob job = Rma.init()) {
            app.check(size, work, job.size());
            final long warmupStart = System.nanoTime();
            final int untimed = warmUp(job, app, variants, size, work, warmupNs);
            if (job.rank() == 0) {
                System.out.println(String.format(Locale.ROOT, "%s, %d ranks, %s: %d untimed rounds in %.1f s", app.id,
                    job.size(), app.sizeLabel(size, work), untimed, (System.nanoTime() - warmupStart) / 1e9));
            }
            for (int repeat = 1; repeat <= repeats; repeat++) {
                for (int k = 0; k < variants.size(); k++) {
                    final Sync sync = variants.get((k + repeat - 1) % variants.size());
                    final Application.Sample sample = app.run(job, sync, size, work);
                    if (job.rank() == 0) {
                        final String line = line(sync.label(), repeat, sample);
                        append(out, line);
                        System.out.println(String.format(Locale.ROOT,
                            "%s %s, %d ranks, %s, repetition %d/%d: %s %s, " + "%.1f us per %s: %s", app.id,
                            sync.label(), job.size(), app.sizeLabel(size, work), repeat, repeats,
                            ReportWriter.throughput(sample.throughput()), app.unit, sample.timeNs() / 1e3, app.timeUnit,
                            sample.verified() ? "VERIFIED" : "FAILED"));
                    }
                }
            }
        }
    }

    /**
     * Runs every variant untimed, round after round: at least one round and {@code warmupNs}, then on while the JIT is
     * busy ({@link #jitQuiet}), for at most {@value #WARMUP_LIMIT} times {@code warmupNs} in all. Rank 0's clock
     * decides and broadcasts, so every rank runs the same rounds. Collective.
     *
     * @return the untimed rounds run.
     */
    static int warmUp(final RmaJob job, final Application app, final List<Sync> variants, final int size,
        final int work, final long warmupNs) {
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        final boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
        final long start = System.nanoTime();
        final int[] again = new int[1];
        int rounds = 0;
        do {
            final long roundStart = System.nanoTime();
            final long compiledBefore = timed ? jit.getTotalCompilationTime() : 0;
            for (final Sync sync : variants) {
                app.run(job, sync, size, work);
            }
            rounds++;
            final long busiestJitMs = job.world().allreduce(timed ? jit.getTotalCompilationTime() - compiledBefore : 0,
                Op.MAX);
            final long now = System.nanoTime();
            again[0] = now - start < warmupNs
                || !jitQuiet(busiestJitMs, now - roundStart) && now - start < WARMUP_LIMIT * warmupNs ? 1 : 0;
            job.world().bcast(again, 0);
        } while (again[0] != 0);
        return rounds;
    }

    /**
     * @return whether compiling for {@code busiestJitMs} (the JIT time of the rank that compiled most) during a round
     *         of {@code roundNs} leaves the JIT quiet: at most {@link #QUIET_JIT_SHARE} of the round.
     */
    static boolean jitQuiet(final long busiestJitMs, final long roundNs) {
        return busiestJitMs * 1e6 <= QUIET_JIT_SHARE * roundNs;
    }

    /**
     * @return the line of one timed run: {@code <variant> <repetition> <timeNs> <throughput> <verified>}.
     */
    static String line(final String variant, final int repetition, final Application.Sample sample) {
        return String.format(Locale.ROOT, "%s %d %d %.9g %b", variant, repetition, sample.timeNs(), sample.throughput(),
            sample.verified());
    }

    private static void append(final Path out, final String line) {
        try {
            Files.writeString(out, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + out, e);
        }
    }
}
