package org.rma4j.litmus.run;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.stream.Stream;

import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;
import org.rma4j.litmus.syntax.Printer;
import org.rma4j.litmus.syntax.Program;

/**
 * Runs each rank as its own JVM through rma4j's {@link Launcher} (the rmarun engine), with
 * {@link ProcessMain} as main class and this JVM's class path. The program is handed over as a
 * printed litmus file in a temporary directory, where the ranks also leave their results.
 */
public final class ProcessRunner implements Runner {
    /** JVM options of every rank: one GC thread set is enough for a litmus rank. */
    static final List<String> JVM_OPTIONS = List.of("-XX:+UseSerialGC");

    @Override
    public Histogram run(final Program program, final RunConfig config, final LongConsumer progress)
        throws IOException, InterruptedException {
        final Path dir = Files.createTempDirectory("rma4j-litmus-");
        try {
            final Path file = dir.resolve("program.litmus");
            Files.writeString(file, Printer.print(program));
            final List<String> output = Collections.synchronizedList(new ArrayList<>());
            final Launcher.Builder builder = Launcher.builder().ranks(program.processCount())
                .mainClass(ProcessMain.class.getName()).args(file.toString(), Integer.toString(config.iterations()),
                    Long.toString(config.seed()), Integer.toString(config.maxDelaySpins()), dir.toString())
                .jvmOptions(JVM_OPTIONS).output(line -> {
                    final String text = line.replaceFirst("^\\[\\d+\\] ", "");
                    if (text.startsWith(ProcessMain.PROGRESS) && progress != null) {
                        progress.accept(Long.parseLong(text.substring(ProcessMain.PROGRESS.length()).trim()));
                    } else {
                        output.add(line);
                    }
                }).errorOutput(output::add);
            if (config.baseDirectory() != null) {
                builder.baseDirectory(config.baseDirectory());
            }
            final JobResult result = builder.build().run();
            if (!result.succeeded()) {
                throw new IllegalStateException("the litmus job of " + program.name() + " failed: "
                    + result.failureMessage().orElse("exit code " + result.exitCode())
                    + (output.isEmpty() ? "" : "\n" + String.join("\n", tail(output))));
            }
            final List<long[][]> rows = new ArrayList<>();
            for (int r = 0; r < program.processCount(); r++) {
                rows.add(read(dir.resolve("rank-" + r + ".bin")));
            }
            return Histogram.of(program, rows);
        } finally {
            delete(dir);
        }
    }

    private static List<String> tail(final List<String> lines) {
        synchronized (lines) {
            return new ArrayList<>(lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        }
    }

    static long[][] read(final Path file) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
            DataInputStream data = new DataInputStream(new BufferedInputStream(raw))) {
            final int rows = data.readInt();
            final int columns = data.readInt();
            final long[][] out = new long[rows][columns];
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < columns; j++) {
                    out[i][j] = data.readLong();
                }
            }
            return out;
        }
    }

    private static void delete(final Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (final Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
