package org.rma4j.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.shm.JobDirectory;
import org.rma4j.test.ShmTestDirectory;

/**
 * The output path of real jobs run by a real {@code rmarun} JVM: bounded lines, binary output byte for byte,
 * and a job that fails rather than loses output.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LauncherOutputTest {
    private static final byte[] PREFIX = "[0] ".getBytes(StandardCharsets.US_ASCII);

    private ShmTestDirectory base;

    @BeforeEach
    void createBaseDirectory() throws IOException {
        base = new ShmTestDirectory("launch-test-");
    }

    @AfterEach
    void removeBaseDirectory() throws IOException {
        base.close();
    }

    @Test
    void shouldForwardALineWithoutEndInBoundedPiecesWithALauncherOfSmallHeap() throws Exception {
        // 96 MiB in one line: twice the launcher's heap, which a line-buffering pump cannot hold.
        final long total = 96L << 20;
        final Process rmarun = start(List.of("-n", "1", "-cp", System.getProperty("java.class.path"),
            RankProgram.class.getName(), "long-line", Long.toString(total)));
        try {
            final CompletableFuture<String> stderr = readAll(rmarun.getErrorStream());
            long payload = 0;
            long lines = 0;
            int longest = 0;
            try (InputStream in = new BufferedInputStream(rmarun.getInputStream(), 1 << 16)) {
                int lineLength = 0;
                int b;
                while ((b = in.read()) >= 0) {
                    if (b == '\n') {
                        lines++;
                        longest = Math.max(longest, lineLength);
                        lineLength = 0;
                    } else if (lineLength < PREFIX.length) {
                        assertEquals(PREFIX[lineLength], (byte)b, "prefix of line " + lines);
                        lineLength++;
                    } else {
                        assertEquals('x', b, "byte in line " + lines);
                        lineLength++;
                        payload++;
                    }
                }
            }
            assertTrue(rmarun.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS));
            final String errors = stderr.get();
            assertEquals(0, rmarun.exitValue(), errors);
            assertTrue(!errors.contains("OutOfMemoryError"), errors);
            assertEquals(total, payload, "every byte forwarded");
            assertEquals(PREFIX.length + OutputPump.MAX_LINE_BYTES, longest);
            assertEquals((total + OutputPump.MAX_LINE_BYTES - 1) / OutputPump.MAX_LINE_BYTES, lines);
            base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
        } finally {
            RmaRunProcess.destroy(rmarun);
        }
    }

    @Test
    void shouldPassBinaryOutputThroughByteForByte() throws Exception {
        final long seed = 20261125L;
        final int length = 1 << 20;
        final Process rmarun = start(List.of("-n", "1", "-cp", System.getProperty("java.class.path"),
            RankProgram.class.getName(), "random", Long.toString(seed), Integer.toString(length)));
        try {
            final CompletableFuture<String> stderr = readAll(rmarun.getErrorStream());
            final byte[] output = rmarun.getInputStream().readAllBytes();
            assertTrue(rmarun.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS));
            assertEquals(0, rmarun.exitValue(), stderr.get());

            final byte[] expected = new byte[length];
            new Random(seed).nextBytes(expected);
            // Every line of the output is the prefix, then the bytes of the rank up to its next '\n'; a last line
            // without '\n' gets one.
            final ByteArrayOutputStream unprefixed = new ByteArrayOutputStream(length + 1);
            int start = 0;
            for (int i = 0; i < output.length; i++) {
                if (output[i] == '\n') {
                    assertArrayEquals(PREFIX, java.util.Arrays.copyOfRange(output, start, start + PREFIX.length));
                    unprefixed.write(output, start + PREFIX.length, i + 1 - start - PREFIX.length);
                    start = i + 1;
                }
            }
            assertEquals(output.length, start, "the output ends with a line end");
            final byte[] actual = unprefixed.toByteArray();
            final boolean endsWithNewline = expected[length - 1] == '\n';
            assertEquals(length + (endsWithNewline ? 0 : 1), actual.length);
            assertArrayEquals(expected, java.util.Arrays.copyOf(actual, length));
            base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
        } finally {
            RmaRunProcess.destroy(rmarun);
        }
    }

    @Test
    void shouldFailTheJobWhenItsOutputCannotBeDelivered() throws Exception {
        final Process rmarun = start(List.of("-n", "2", "-cp", System.getProperty("java.class.path"),
            RankProgram.class.getName(), "lines", "200000"));
        try {
            final CompletableFuture<String> stderr = readAll(rmarun.getErrorStream());
            rmarun.getInputStream().close(); // a reader that went away: a closed pipe
            assertTrue(rmarun.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS), "rmarun hangs");
            final String errors = stderr.get();
            assertEquals(Launcher.EXIT_OUTPUT_LOST, rmarun.exitValue(), errors);
            assertTrue(errors.contains("rmarun: output of rank "), errors);
            assertTrue(errors.contains("[0] done") && errors.contains("[1] done"),
                "both ranks ran to the end: " + errors);
            base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
        } finally {
            RmaRunProcess.destroy(rmarun);
        }
    }

    @Test
    void shouldFailTheJobWhenTheOutputSinkThrows() throws Exception {
        final List<String> err = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger delivered = new AtomicInteger();
        final JobResult result = Launcher.builder().ranks(2).mainClass(RankProgram.class.getName())
            .args("lines", "50000").jvmOptions(RmaRunProcess.SMALL_JVM).baseDirectory(base.path()).output(line -> {
                if (delivered.incrementAndGet() > 10) {
                    throw new IllegalStateException("sink full");
                }
            }).errorOutput(err::add).build().run();

        assertEquals(Launcher.EXIT_OUTPUT_LOST, result.exitCode(), () -> "stderr: " + err);
        assertEquals(List.of(0, 0), result.rankExitCodes());
        assertTrue(result.failureMessage().orElseThrow().contains("sink full"), result.failureMessage()::get);
        assertTrue(err.stream().anyMatch(line -> line.startsWith("rmarun: output of rank ")), () -> "stderr: " + err);
        assertTrue(err.contains("[0] done") && err.contains("[1] done"), () -> "stderr: " + err);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    private Process start(final List<String> rmarunArgs) throws IOException {
        return new ProcessBuilder(RmaRunProcess.command(base.path(), rmarunArgs)).start();
    }

    private static CompletableFuture<String> readAll(final InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (final IOException e) {
                return "(unreadable: " + e + ")";
            }
        });
    }
}
