package org.rma4j.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Copies the lines of one output stream of a rank to a sink, each prefixed {@code [rank] }, on a daemon
 * thread of its own, until the stream ends. Sink calls are serialized on a lock shared by all pumps of a
 * job; an exception from the sink is swallowed so that the rank never blocks on a full pipe.
 */
final class OutputPump {
    private final Thread thread;

    private OutputPump(final Thread thread) {
        this.thread = thread;
    }

    /**
     * Starts pumping.
     *
     * @param input    the stream (closed when it ends).
     * @param rank     the rank that writes it.
     * @param sink     receives the prefixed lines.
     * @param sinkLock held while the sink is called.
     * @param name     name of the pump thread.
     */
    static OutputPump start(final InputStream input, final int rank, final Consumer<String> sink,
        final Object sinkLock, final String name) {
        final String prefix = "[" + rank + "] ";
        final Thread thread = Thread.ofPlatform().daemon().name(name).start(() -> pump(input, prefix, sink, sinkLock));
        return new OutputPump(thread);
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

    private static void pump(final InputStream input, final String prefix, final Consumer<String> sink,
        final Object sinkLock) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(input, childCharset()))) {
            String line;
            while ((line = reader.readLine()) != null) {
                final String prefixed = prefix + line;
                synchronized (sinkLock) {
                    try {
                        sink.accept(prefixed);
                    } catch (final RuntimeException ignored) {
                        // a failing sink must not stop the draining, or the rank blocks on a full pipe
                    }
                }
            }
        } catch (final IOException ignored) {
            // the stream was closed under us: the rank is gone
        }
    }

    /**
     * Ranks are JVMs writing to a pipe, which encode with the platform's native encoding.
     */
    private static Charset childCharset() {
        final String nativeEncoding = System.getProperty("native.encoding");
        try {
            return nativeEncoding != null ? Charset.forName(nativeEncoding) : Charset.defaultCharset();
        } catch (final IllegalArgumentException e) {
            return Charset.defaultCharset();
        }
    }
}
