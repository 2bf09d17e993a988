package org.rma4j.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where a job's output lines go: a byte stream, which receives a rank's bytes unchanged (no charset
 * decoding, so binary output passes through), or a consumer of strings, which receives each line decoded
 * with the ranks' native encoding. Calls are serialized by the launcher. A sink that cannot deliver a
 * line throws, so that the launcher can fail the job instead of losing output silently.
 */
abstract class LineSink {
    private static final byte NEWLINE = '\n';

    /**
     * Delivers one line: {@code prefix} then {@code length} bytes of {@code bytes} from {@code offset}.
     *
     * @throws RuntimeException if the line could not be delivered.
     */
    abstract void line(byte[] prefix, byte[] bytes, int offset, int length);

    /**
     * Delivers one of the launcher's own messages.
     *
     * @throws RuntimeException if the message could not be delivered.
     */
    abstract void message(String line);

    /**
     * @return a sink writing raw bytes to {@code stream}, one {@code '\n'} after each line; a stream whose
     *         {@link PrintStream#checkError()} reports an error fails the line.
     */
    static LineSink of(final PrintStream stream) {
        Objects.requireNonNull(stream);
        return new LineSink() {
            @Override
            void line(final byte[] prefix, final byte[] bytes, final int offset, final int length) {
                stream.write(prefix, 0, prefix.length);
                stream.write(bytes, offset, length);
                stream.write(NEWLINE);
                check(stream);
            }

            @Override
            void message(final String line) {
                stream.println(line);
                check(stream);
            }
        };
    }

    /**
     * @return a sink passing each line, decoded with {@code charset}, to {@code consumer}.
     */
    static LineSink of(final Consumer<String> consumer, final Charset charset) {
        Objects.requireNonNull(consumer);
        return new LineSink() {
            @Override
            void line(final byte[] prefix, final byte[] bytes, final int offset, final int length) {
                consumer.accept(new String(prefix, charset) + new String(bytes, offset, length, charset));
            }

            @Override
            void message(final String line) {
                consumer.accept(line);
            }
        };
    }

    /**
     * Ranks are JVMs writing to a pipe, which encode with the platform's native encoding.
     */
    static Charset childCharset() {
        final String nativeEncoding = System.getProperty("native.encoding");
        try {
            return nativeEncoding != null ? Charset.forName(nativeEncoding) : Charset.defaultCharset();
        } catch (final IllegalArgumentException e) {
            return Charset.defaultCharset();
        }
    }

    private static void check(final PrintStream stream) {
        if (stream.checkError()) {
            throw new UncheckedIOException(
                new IOException("the output stream reports an error (closed pipe or full disk?)"));
        }
    }
}
