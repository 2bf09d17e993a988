package org.rma4j.bench.harness;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The text file through which every measuring program (a Java rank, a C peer) hands its samples to the
 * harness: one line per (row, size), {@code <row> <sizeBytes> <v1> <v2> ...}, values in nanoseconds;
 * lines starting with {@code #} are comments. The C peers write the same format ({@code bench_common.h}).
 */
public final class SampleFile {
    private SampleFile() {
    }

    /** One line of a sample file. */
    public record Line(String row, long sizeBytes, double[] valuesNs) {
    }

    /**
     * Appends one line to {@code file}, creating it if needed.
     */
    public static void append(final Path file, final String row, final long sizeBytes, final double[] valuesNs,
        final int count) {
        final StringBuilder line = new StringBuilder(16 + count * 8).append(row).append(' ').append(sizeBytes);
        for (int i = 0; i < count; i++) {
            appendTenths(line.append(' '), valuesNs[i]);
        }
        line.append('\n');
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardOpenOption.CREATE,
            StandardOpenOption.APPEND)) {
            writer.write(line.toString());
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write samples to " + file, e);
        }
    }

    /**
     * Appends {@code value} with one decimal, as {@code %.1f} does, without a formatter per value: the profiling
     * step's jobs write a million samples per row, whose formatting showed in their profiles.
     */
    static void appendTenths(final StringBuilder line, final double value) {
        if (!Double.isFinite(value) || Math.abs(value) >= Long.MAX_VALUE / 10.0) {
            line.append(String.format(Locale.ROOT, "%.1f", value));
            return;
        }
        // NOTE: the magnitude is rounded, half up as %.1f does, so that -2.35 gives -2.4 as 2.35 gives 2.4
        final long tenths = Math.round(Math.abs(value) * 10);
        if (value < 0 && tenths > 0) {
            line.append('-');
        }
        line.append(tenths / 10).append('.').append(tenths % 10);
    }

    /**
     * @return the lines of {@code file}, comments skipped.
     * @throws IllegalArgumentException naming the file and line if a line is malformed.
     */
    public static List<Line> read(final Path file) {
        final List<String> text;
        try {
            text = Files.readAllLines(file);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read samples from " + file, e);
        }
        final List<Line> lines = new ArrayList<>();
        int number = 0;
        for (final String raw : text) {
            number++;
            final String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            final String[] fields = line.split("\\s+");
            if (fields.length < 3) {
                throw new IllegalArgumentException(file + ":" + number + ": expected '<row> <size> <values...>'");
            }
            try {
                final double[] values = Arrays.stream(fields, 2, fields.length).mapToDouble(Double::parseDouble)
                    .toArray();
                lines.add(new Line(fields[0], Long.parseLong(fields[1]), values));
            } catch (final NumberFormatException e) {
                throw new IllegalArgumentException(file + ":" + number + ": " + e.getMessage(), e);
            }
        }
        return lines;
    }
}
