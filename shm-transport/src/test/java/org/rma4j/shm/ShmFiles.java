package org.rma4j.shm;

import org.rma4j.test.ShmTestDirectory;

/**
 * Mapped files in a test's {@link ShmTestDirectory}, unmapped when the test ends (test-support knows no
 * shm-transport types: it sits below this module's tests).
 */
final class ShmFiles {
    private ShmFiles() {
    }

    /**
     * @return a new mapped file {@code name} of {@code sizeBytes} in the test's directory.
     */
    static MappedFile create(final ShmTestDirectory shm, final String name, final long sizeBytes) {
        return shm.track(MappedFile.create(shm.path(name), sizeBytes));
    }

    /**
     * @return a mapping of its own of the file {@code name} of the test's directory, as another process has.
     */
    static MappedFile open(final ShmTestDirectory shm, final String name) {
        return shm.track(MappedFile.open(shm.path(name)));
    }
}
