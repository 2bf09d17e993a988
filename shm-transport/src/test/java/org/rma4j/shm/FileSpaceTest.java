package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.Tmpfs;

/**
 * Reservations on a private 8 MiB tmpfs, whose free space (pages, as statvfs counts them) only this test
 * changes.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FileSpaceTest {
    private static final long MIB = 1 << 20;
    private static final long TMPFS_BYTES = 8 * MIB;

    private Tmpfs tmpfs;

    @BeforeEach
    void setUp() throws Exception {
        tmpfs = Tmpfs.mount(TMPFS_BYTES);
    }

    @AfterEach
    void tearDown() throws Exception {
        tmpfs.close();
    }

    @Test
    void shouldUsePosixFallocateInTheTestJvm() {
        assertTrue(FileSpace.isNative(), "the test JVM runs with --enable-native-access=ALL-UNNAMED on Linux");
    }

    @Test
    void shouldReserveEveryPageOfTheFile() throws Exception {
        final Path file = Files.createFile(tmpfs.path().resolve("file"));
        assertEquals(TMPFS_BYTES, FileSpace.usableBytes(tmpfs.path()));

        FileSpace.reserve(file, 3 * MIB + 1);

        assertEquals(3 * MIB + 1, Files.size(file));
        assertEquals(TMPFS_BYTES - 3 * MIB - 4096, FileSpace.usableBytes(tmpfs.path()), "3 MiB and one page taken");
    }

    @Test
    void shouldReportTooLittleSpaceAndGiveBackWhatTheFailedCallTook() throws Exception {
        final Path file = Files.createFile(tmpfs.path().resolve("file"));

        final ShmSpaceException thrown = assertThrows(ShmSpaceException.class, () -> FileSpace.reserve(file, 16 * MIB));

        assertEquals(16 * MIB, thrown.requestedBytes());
        assertEquals(TMPFS_BYTES, thrown.usableBytes(), "tmpfs frees the pages of a failed fallocate");
        assertEquals(tmpfs.path(), thrown.directory());
        assertTrue(
            thrown.getMessage().contains(16 * MIB + " bytes asked, " + TMPFS_BYTES + " bytes free in " + tmpfs.path()),
            thrown.getMessage());
        assertTrue(thrown.getMessage().contains("ENOSPC"), thrown.getMessage());
    }

    @Test
    void shouldReportTheErrnoOfAFileThatCannotBeOpened() {
        final Path missing = tmpfs.path().resolve("missing");

        final IOException thrown = assertThrows(IOException.class, () -> FileSpace.reserve(missing, MIB));

        assertEquals("open(" + missing + ") failed: errno 2", thrown.getMessage(), "ENOENT");
    }

    @Test
    void shouldNotFollowASymbolicLink() throws Exception {
        final Path target = Files.createFile(tmpfs.path().resolve("target"));
        final Path link = Files.createSymbolicLink(tmpfs.path().resolve("link"), target);

        final IOException thrown = assertThrows(IOException.class, () -> FileSpace.reserve(link, MIB));

        assertEquals("open(" + link + ") failed: errno 40", thrown.getMessage(), "ELOOP");
        assertEquals(0, Files.size(target), "the link's target was extended");
    }

    @Test
    void shouldReserveByWritingZerosWithoutNativeCalls() throws Exception {
        final Path file = Files.createFile(tmpfs.path().resolve("file"));

        FileSpace.fillWithZeros(file, 3 * MIB + 1);

        assertEquals(3 * MIB + 1, Files.size(file));
        assertEquals(TMPFS_BYTES - 3 * MIB - 4096, FileSpace.usableBytes(tmpfs.path()));
        assertEquals(-1L, Files.mismatch(file, Files.write(tmpfs.path().resolve("zeros"), new byte[3 << 20 | 1])));
    }

    @Test
    void shouldReportTooLittleSpaceWhenWritingZeros() throws Exception {
        final Path file = Files.createFile(tmpfs.path().resolve("file"));

        final ShmSpaceException thrown = assertThrows(ShmSpaceException.class,
            () -> FileSpace.fillWithZeros(file, 16 * MIB));

        assertEquals(16 * MIB, thrown.requestedBytes());
        assertEquals(tmpfs.path(), thrown.directory());
        Files.delete(file);
        assertEquals(TMPFS_BYTES, FileSpace.usableBytes(tmpfs.path()));
    }
}
