package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A private base directory under /dev/shm for the job directories of one test, removed with all it
 * holds by {@link #close()}. Registered as a JUnit extension on an instance field, it also checks after
 * each test that the jobs left nothing behind, and removes the directory even when the test failed.
 */
final class ShmTestDirectory implements AutoCloseable, AfterEachCallback {
    private final Path path;

    ShmTestDirectory() {
        try {
            path = Files.createTempDirectory(Path.of("/dev/shm"), "rma4j-test-");
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path path() {
        return path;
    }

    /**
     * @return what is left in the base directory.
     */
    List<Path> entries() {
        try (Stream<Path> entries = Files.list(path)) {
            return entries.toList();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void afterEach(final ExtensionContext context) {
        try {
            assertEquals(List.of(), entries(), "the job left files behind");
        } finally {
            close();
        }
    }

    @Override
    public void close() {
        try (Stream<Path> tree = Files.walk(path)) {
            for (final Path entry : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(entry);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
