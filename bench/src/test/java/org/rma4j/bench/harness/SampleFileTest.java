package org.rma4j.bench.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SampleFileTest {
    @TempDir
    Path directory;

    @Test
    void shouldReadBackWhatWasAppendedSkippingComments() throws IOException {
        final Path file = directory.resolve("x.samples");
        Files.writeString(file, "# written by a C peer\n\n");
        SampleFile.append(file, "floor", 8, new double[] {1.5, 2.0, 99.0}, 2);
        SampleFile.append(file, "put-bw", 1024, new double[] {10.25}, 1);
        final List<SampleFile.Line> lines = SampleFile.read(file);
        assertEquals(2, lines.size());
        assertEquals("floor", lines.get(0).row());
        assertEquals(8, lines.get(0).sizeBytes());
        assertArrayEquals(new double[] {1.5, 2.0}, lines.get(0).valuesNs(), "only the first count values");
        assertEquals(1024, lines.get(1).sizeBytes());
        assertArrayEquals(new double[] {10.3}, lines.get(1).valuesNs(), 1e-9, "one decimal, as the C peers print");
    }

    @Test
    void shouldNameFileAndLineOfAMalformedLine() throws IOException {
        final Path file = directory.resolve("bad.samples");
        Files.writeString(file, "floor 8 1.0\nfloor eight 2.0\n");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SampleFile.read(file));
        assertTrue(e.getMessage().contains("bad.samples:2"), e.getMessage());
    }

    @Test
    void shouldWriteOneDecimalAsPercentOneFDoes() {
        for (final double value : new double[] {0, 0.04, 1.5, 10.25, 99.95, 123456.789, -2.35, 1e30, Double.NaN}) {
            final StringBuilder line = new StringBuilder();
            SampleFile.appendTenths(line, value);
            assertEquals(Double.parseDouble(String.format(java.util.Locale.ROOT, "%.1f", value)),
                Double.parseDouble(line.toString()), 1e-9, line.toString());
        }
    }
}
