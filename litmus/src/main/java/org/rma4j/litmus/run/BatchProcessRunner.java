package org.rma4j.litmus.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;
import org.rma4j.litmus.syntax.Printer;
import org.rma4j.litmus.syntax.Program;

/**
 * Runs several programs with one process count in one rma4j job of real processes: each rank runs
 * the programs one after the other ({@link ProcessMain} {@code --batch}), each with its own window
 * and its N iterations, exactly as {@link ProcessRunner} runs one. A generated suite of thousands of
 * tests then pays the JVM start-up once per batch instead of once per test.
 */
public final class BatchProcessRunner {
    private BatchProcessRunner() {
    }

    /**
     * @param programs programs with the same process count.
     * @return one histogram per program, in order.
     * @throws IllegalStateException if the job fails (a rank's error, a forbidden call).
     */
    public static List<Histogram> run(final List<Program> programs, final RunConfig config)
        throws IOException, InterruptedException {
        final int procs = programs.getFirst().processCount();
        final Path dir = Files.createTempDirectory("rma4j-litmus-batch-");
        try {
            final List<String> list = new ArrayList<>();
            for (int i = 0; i < programs.size(); i++) {
                if (programs.get(i).processCount() != procs) {
                    throw new IllegalArgumentException("a batch has programs of one process count");
                }
                final Path file = dir.resolve("program-" + i + ".litmus");
                Files.writeString(file, Printer.print(programs.get(i)));
                list.add(file.toString());
            }
            final Path listFile = dir.resolve("programs.txt");
            Files.write(listFile, list);
            final List<String> output = Collections.synchronizedList(new ArrayList<>());
            final Launcher.Builder builder = Launcher.builder().ranks(procs).mainClass(ProcessMain.class.getName())
                .args(ProcessMain.BATCH, listFile.toString(), Integer.toString(config.iterations()),
                    Long.toString(config.seed()), Integer.toString(config.maxDelaySpins()), dir.toString())
                .jvmOptions(ProcessRunner.JVM_OPTIONS).output(output::add).errorOutput(output::add);
            if (config.baseDirectory() != null) {
                builder.baseDirectory(config.baseDirectory());
            }
            final JobResult result = builder.build().run();
            if (!result.succeeded()) {
                throw new IllegalStateException("the litmus batch job failed: "
                    + result.failureMessage().orElse("exit code " + result.exitCode())
                    + (output.isEmpty()
                        ? ""
                        : "\n" + String.join("\n", output.subList(Math.max(0, output.size() - 30), output.size()))));
            }
            final List<Histogram> histograms = new ArrayList<>();
            for (int i = 0; i < programs.size(); i++) {
                final List<long[][]> rows = new ArrayList<>();
                for (int r = 0; r < procs; r++) {
                    rows.add(ProcessRunner.read(dir.resolve("rank-" + r + "-" + i + ".bin")));
                }
                histograms.add(Histogram.of(programs.get(i), rows));
            }
            return histograms;
        } finally {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (final Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
