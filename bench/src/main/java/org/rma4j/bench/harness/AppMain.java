package org.rma4j.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.examples.notified.Sync;

/**
 * Main class of each rank JVM of an application job (started by {@link AppRunner} through the launcher).
 *
 * <p>usage: {@code AppMain APP OUT_FILE VARIANTS_CSV SIZE WORK REPEATS}. Every rank runs one untimed
 * round of every variant, then REPEATS timed rounds; each round runs every variant once, starting one
 * variant later than the round before, so that no variant always runs first or right after the same
 * one. Rank 0 appends one line per timed run to OUT_FILE ({@link #line}) and prints it.
 */
public final class AppMain {
    private AppMain() {
    }

    public static void main(final String[] args) {
        if (args.length != 6) {
            System.err.println("usage: AppMain APP OUT_FILE VARIANTS_CSV SIZE WORK REPEATS");
            System.exit(2);
        }
        final Application app = Application.of(args[0]);
        final Path out = Path.of(args[1]);
        final List<Sync> variants = Arrays.stream(args[2].split(",")).map(app::variant).toList();
        final int size = Integer.parseInt(args[3]);
        final int work = Integer.parseInt(args[4]);
        final int repeats = Integer.parseInt(args[5]);
        try (RmaJob job = Rma.init()) {
            app.check(size, work, job.size());
            for (final Sync sync : variants) {
                app.run(job, sync, size, work);
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
