package org.rma4j.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OutputPumpTest {
    private static final long JOIN_SLICE_NS = TimeUnit.SECONDS.toNanos(1);

    @Test
    void shouldNeverCutAUtf8SequenceOfALongLine() throws Exception {
        final String line = "a".repeat(OutputPump.MAX_LINE_BYTES - 1) + "\u00e9\u20acz";
        final List<String> lines = new ArrayList<>();

        final OutputPump pump = pump(line.getBytes(StandardCharsets.UTF_8),
            LineSink.of(lines::add, StandardCharsets.UTF_8));

        assertNull(pump.failure());
        assertEquals(2, lines.size(), lines.toString());
        assertEquals("[3] " + "a".repeat(OutputPump.MAX_LINE_BYTES - 1), lines.get(0));
        assertEquals("[3] \u00e9\u20acz", lines.get(1));
    }

    @Test
    void shouldPassEveryByteValueThroughAPrintStreamUnchanged() throws Exception {
        final byte[] bytes = new byte[256];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte)(255 - i); // '\n' (10) is byte 245: two lines
        }
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        final OutputPump pump = pump(bytes, LineSink.of(new PrintStream(out, true)));

        assertNull(pump.failure());
        final ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.writeBytes("[3] ".getBytes(StandardCharsets.US_ASCII));
        expected.write(bytes, 0, 246);
        expected.writeBytes("[3] ".getBytes(StandardCharsets.US_ASCII));
        expected.write(bytes, 246, 10);
        expected.write('\n');
        assertArrayEquals(expected.toByteArray(), out.toByteArray());
    }

    @Test
    void shouldRecordAFailedSinkAndKeepDrainingTheStream() throws Exception {
        final byte[] bytes = "line\n".repeat(10_000).getBytes(StandardCharsets.US_ASCII);
        final List<String> lines = new ArrayList<>();

        final OutputPump pump = pump(bytes, LineSink.of(text -> {
            if (lines.size() == 3) {
                throw new IllegalStateException("sink closed");
            }
            lines.add(text);
        }, StandardCharsets.UTF_8));

        assertNotNull(pump.failure());
        assertTrue(pump.describeFailure().contains("sink closed"), pump.describeFailure());
        assertTrue(pump.describeFailure().startsWith("standard output: at least "), pump.describeFailure());
        assertEquals(3, lines.size());
    }

    @Test
    void shouldReportAStreamThatFailsToRead() throws Exception {
        final InputStream failing = new InputStream() {
            @Override
            public int read() throws java.io.IOException {
                throw new java.io.IOException("pipe broken");
            }
        };
        final OutputPump pump = OutputPump.start(failing, 3, "standard error", LineSink.of(text -> {
        }, StandardCharsets.UTF_8), new Object(), "pump-test");

        awaitEnd(pump);
        assertFalse(pump.describeFailure() == null, "a read failure loses output");
        assertTrue(pump.describeFailure().contains("pipe broken"), pump.describeFailure());
    }

    private static OutputPump pump(final byte[] bytes, final LineSink sink) throws InterruptedException {
        final OutputPump pump = OutputPump.start(new ByteArrayInputStream(bytes), 3, "standard output", sink,
            new Object(), "pump-test");
        awaitEnd(pump);
        return pump;
    }

    /** Waits until the pump's thread ends; the class's timeout is the hang check. */
    private static void awaitEnd(final OutputPump pump) throws InterruptedException {
        while (!pump.await(System.nanoTime() + JOIN_SLICE_NS)) {
            // the pump is still reading: join again
        }
    }
}
