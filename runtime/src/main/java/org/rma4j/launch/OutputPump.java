package org.rma4j.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Copies one output stream of a rank to a sink, line by line, each line prefixed {@code [rank] }, on a
 * daemon thread of its own, until the stream ends.
 *
 * <p>Lines are split at {@code '\n'} in the bytes, without decoding: what a rank writes reaches a byte
 * sink unchanged between the prefixes. A line longer than {@link #MAX_LINE_BYTES} is delivered in pieces
 * of at most that many bytes, each prefixed (a cut never splits a UTF-8 sequence of a text line), so a
 * rank printing without end costs the launcher a fixed buffer. Text after the last {@code '\n'} is
 * delivered as a line when the stream ends.
 *
 * <p>Sink calls are serialized on a lock shared by all pumps of a job. If the sink fails, or reading or
 * anything else fails, the pump records the first failure ({@link #failure()}) and keeps reading and
 * discarding, so that the rank never blocks on a full pipe; the launcher then fails the job.
 */
final class OutputPump {
    /** Longest piece of a line delivered in one sink call, in bytes (without the prefix). */
    static final int MAX_LINE_BYTES = 64 * 1024;

    private static final int READ_BYTES = 8192;
    private static final int MAX_UTF8_CONTINUATION = 3;

    private final Thread thread;
    private final String stream;
    private volatile Throwable failure;
    private volatile long discardedBytes;

    private OutputPump(final String name, final String stream, final InputStream input, final int rank,
        final LineSink sink, final Object sinkLock) {
        this.stream = stream;
        final byte[] prefix = ("[" + rank + "] ").getBytes(StandardCharsets.US_ASCII);
        this.thread = Thread.ofPlatform().daemon().name(name).unstarted(() -> run(input, prefix, sink, sinkLock));
    }

    /**
     * Starts pumping.
     *
     * @param input    the stream (closed when it ends).
     * @param rank     the rank that writes it.
     * @param stream   which stream it is ("standard output", "standard error"), for messages.
     * @param sink     receives the prefixed lines.
     * @param sinkLock held while the sink is called.
     * @param name     name of the pump thread.
     */
    static OutputPump start(final InputStream input, final int rank, final String stream, final LineSink sink,
        final Object sinkLock, final String name) {
        final OutputPump pump = new OutputPump(name, stream, input, rank, sink, sinkLock);
        pump.thread.start();
        return pump;
    }

    /**
     * Waits for the stream to end (all lines delivered), at most until {@code deadlineNs}.
     *
     * @param deadlineNs a {@link System#nanoTime()} value.
     * @return true if the pump has finished.
     */
    boolean await(final long deadlineNs) throws InterruptedException {
        final long remainingNs = deadlineNs - System.nanoTime();
        if (remainingNs > 0) {
            thread.join(Duration.ofNanos(remainingNs));
        }
        return !thread.isAlive();
    }

    /**
     * @return the first failure of the pump (output was lost), or null.
     */
    Throwable failure() {
        return failure;
    }

    /**
     * @return a description of the lost output, e.g. {@code "standard output: 4096 bytes not delivered:
     *         java.io.UncheckedIOException: ..."}, or null if nothing was lost.
     */
    String describeFailure() {
        final Throwable cause = failure;
        return cause == null
            ? null
            : stream + ": "
                + (discardedBytes > 0 ? "at least " + discardedBytes + " bytes not delivered: " : "output lost: ")
                + cause;
    }

    private void run(final InputStream input, final byte[] prefix, final LineSink sink, final Object sinkLock) {
        try (input) {
            try {
                pump(input, prefix, sink, sinkLock);
            } catch (final Throwable t) {
                // NOTE: recorded before draining, so the launcher sees the failure however long the rank writes.
                failure = t;
                discard(input);
            }
        } catch (final IOException ignored) {
            // closing a stream that is gone
        }
    }

    private void pump(final InputStream input, final byte[] prefix, final LineSink sink, final Object sinkLock)
        throws IOException {
        final byte[] buffer = new byte[MAX_LINE_BYTES + READ_BYTES];
        int length = 0;
        while (true) {
            final int read = input.read(buffer, length, Math.min(READ_BYTES, buffer.length - length));
            if (read < 0) {
                if (length > 0) {
                    deliver(sink, sinkLock, prefix, buffer, 0, length);
                }
                return;
            }
            int start = 0;
            for (int i = length; i < length + read; i++) {
                if (buffer[i] == '\n') {
                    deliverPieces(sink, sinkLock, prefix, buffer, start, i);
                    start = i + 1;
                }
            }
            length += read;
            // A line still open may not grow past MAX_LINE_BYTES: its full pieces go now.
            while (length - start > MAX_LINE_BYTES) {
                final int cut = cut(buffer, start, start + MAX_LINE_BYTES);
                deliver(sink, sinkLock, prefix, buffer, start, cut - start);
                start = cut;
            }
            System.arraycopy(buffer, start, buffer, 0, length - start);
            length -= start;
        }
    }

    private static void deliverPieces(final LineSink sink, final Object sinkLock, final byte[] prefix,
        final byte[] buffer, final int from, final int to) {
        int start = from;
        while (to - start > MAX_LINE_BYTES) {
            final int cut = cut(buffer, start, start + MAX_LINE_BYTES);
            deliver(sink, sinkLock, prefix, buffer, start, cut - start);
            start = cut;
        }
        deliver(sink, sinkLock, prefix, buffer, start, to - start);
    }

    /**
     * @return where to cut a piece that would end at {@code end} (a valid index): before the UTF-8 sequence
     *         that {@code end} would split, or {@code end} if the bytes there are no UTF-8 sequence.
     */
    private static int cut(final byte[] buffer, final int start, final int end) {
        for (int cut = end; cut > start && cut >= end - MAX_UTF8_CONTINUATION; cut--) {
            if ((buffer[cut] & 0xC0) != 0x80) {
                return cut;
            }
        }
        return end;
    }

    private static void deliver(final LineSink sink, final Object sinkLock, final byte[] prefix, final byte[] buffer,
        final int offset, final int length) {
        synchronized (sinkLock) {
            sink.line(prefix, buffer, offset, length);
        }
    }

    private void discard(final InputStream input) {
        final byte[] scratch = new byte[READ_BYTES];
        try {
            int read;
            while ((read = input.read(scratch)) >= 0) {
                discardedBytes += read;
            }
        } catch (final IOException ignored) {
            // the rank is gone; the failure is recorded already
        }
    }
}
