package org.rma4j.shm;

import java.io.Serial;
import java.nio.file.Path;

/**
 * A shared file is not what its opener expects: wrong magic, layout version or size, truncated,
 * or not completely initialised.
 */
public class ShmFormatException extends IllegalStateException {
    @Serial
    private static final long serialVersionUID = 1L;

    public ShmFormatException(final Path path, final String problem) {
        super("shared file " + path + ": " + problem);
    }
}
