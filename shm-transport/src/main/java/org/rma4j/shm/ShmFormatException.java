package org.rma4j.shm;

import java.io.Serial;
import java.nio.file.Path;

/**
 * A shared file is not what its opener expects: wrong magic, layout version or size, truncated,
 * not completely initialised, or a field its creator wrote does not hold the value the opener's
 * layout expects.
 */
public class ShmFormatException extends IllegalStateException {
    @Serial
    private static final long serialVersionUID = 1L;

    public ShmFormatException(final Path path, final String problem) {
        super("shared file " + path + ": " + problem);
    }

    /**
     * A field that holds another value than the one expected.
     *
     * @param path     the file.
     * @param field    the field's name, e.g. {@code "row length"}.
     * @param expected the value the opener expects.
     * @param found    the value the file holds.
     * @return {@code "shared file <path>: <field> <found> is not the expected <expected>"}.
     */
    public static ShmFormatException mismatch(final Path path, final String field, final Object expected,
        final Object found) {
        return new ShmFormatException(path, field + " " + found + " is not the expected " + expected);
    }
}
