package org.rma4j.litmus.run;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.litmus.syntax.Program;
import org.rma4j.litmus.syntax.Parser;

/**
 * The main class of each rank in process mode, started by {@link ProcessRunner} through rma4j's
 * launcher: {@code ProcessMain FILE ITERATIONS SEED DELAY OUTDIR}. Rank r writes its rows to
 * {@code OUTDIR/rank-r.bin} (int rows, int columns, then the longs row by row); rank 0 prints
 * {@code progress N} lines.
 */
public final class ProcessMain {
    /** Prefix of the progress lines rank 0 prints. */
    static final String PROGRESS = "progress ";
    /** First argument of the batch form: {@code --batch LISTFILE ITERATIONS SEED DELAY OUTDIR}. */
    static final String BATCH = "--batch";

    private ProcessMain() {
    }

    public static void main(final String[] args) throws IOException {
        if (args.length == 6 && args[0].equals(BATCH)) {
            batch(args);
            return;
        }
        if (args.length != 5) {
            System.err.println("usage: ProcessMain FILE ITERATIONS SEED DELAY OUTDIR");
            System.exit(2);
        }
        final Program program = Parser.parse(Path.of(args[0]));
        final RunConfig config = new RunConfig(Integer.parseInt(args[1]), Long.parseLong(args[2]),
            Integer.parseInt(args[3]), RunConfig.Mode.PROCESSES, null);
        final Path out = Path.of(args[4]);
        try (RmaJob job = Rma.init()) {
            if (job.size() != program.processCount()) {
                throw new IllegalStateException("the job has " + job.size() + " ranks but " + program.name() + " has "
                    + program.processCount() + " processes");
            }
            final long[][] rows = RankProgram.run(program, job, config, n -> System.out.println(PROGRESS + n));
            write(out.resolve("rank-" + job.rank() + ".bin"), rows);
        }
    }

    /** Runs every program of the list file in turn; rank r writes the rows of program i to rank-r-i.bin. */
    private static void batch(final String[] args) throws IOException {
        final List<String> files = Files.readAllLines(Path.of(args[1]));
        final RunConfig config = new RunConfig(Integer.parseInt(args[2]), Long.parseLong(args[3]),
            Integer.parseInt(args[4]), RunConfig.Mode.PROCESSES, null);
        final Path out = Path.of(args[5]);
        try (RmaJob job = Rma.init()) {
            for (int i = 0; i < files.size(); i++) {
                final Program program = Parser.parse(Path.of(files.get(i)));
                final long[][] rows = RankProgram.run(program, job, config, null);
                write(out.resolve("rank-" + job.rank() + "-" + i + ".bin"), rows);
            }
        }
    }

    static void write(final Path file, final long[][] rows) throws IOException {
        try (OutputStream raw = Files.newOutputStream(file);
            DataOutputStream data = new DataOutputStream(new BufferedOutputStream(raw))) {
            data.writeInt(rows.length);
            data.writeInt(rows.length == 0 ? 0 : rows[0].length);
            for (final long[] row : rows) {
                for (final long v : row) {
                    data.writeLong(v);
                }
            }
        }
    }
}
