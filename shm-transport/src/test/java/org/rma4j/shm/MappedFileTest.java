package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.ShmTestDirectory;
import org.rma4j.test.Tmpfs;

@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MappedFileTest {
    private static final long MIB = 1 << 20;
    private static final long TMPFS_BYTES = 8 * MIB;
    private static final byte[] PRECIOUS = "precious content".getBytes(StandardCharsets.US_ASCII);

    private ShmTestDirectory shm;

    @BeforeEach
    void setUp() throws Exception {
        shm = new ShmTestDirectory();
    }

    @AfterEach
    void tearDown() throws Exception {
        shm.close();
    }

    @Test
    void shouldCreateZeroFilledFileOfRequestedSize() throws Exception {
        final MappedFile file = ShmFiles.create(shm, "file", 10_000);

        assertEquals(10_000L, file.segment().byteSize());
        assertEquals(10_000L, Files.size(shm.path("file")));
        assertEquals(-1L, file.segment().mismatch(MemorySegment.ofArray(new byte[10_000])), "every byte is zero");
        assertEquals(shm.path("file"), file.path());
    }

    @Test
    void shouldCreateFileWithOwnerOnlyPermissions() throws Exception {
        ShmFiles.create(shm, "file", 4096);

        assertEquals(PosixFilePermissions.fromString("rw-------"),
            Files.getPosixFilePermissions(shm.path("file"), LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void shouldShareStoresBetweenMappingsOfTheSameFile() {
        final MemorySegment created = ShmFiles.create(shm, "file", 4096).segment();
        final MemorySegment opened = ShmFiles.open(shm, "file").segment();

        Words.putLongVolatile(created, 64, 0x5EED_5EEDL);
        Words.putIntVolatile(opened, 4092, 77);

        assertEquals(0x5EED_5EEDL, Words.getLongVolatile(opened, 64));
        assertEquals(77, Words.getIntVolatile(created, 4092));
        assertEquals(4096L, opened.byteSize());
    }

    @Test
    void shouldRefuseToCreateExistingFile() throws Exception {
        final Path path = shm.path("file");
        Files.write(path, PRECIOUS);

        final UncheckedIOException thrown = assertThrows(UncheckedIOException.class,
            () -> ShmFiles.create(shm, "file", 4096));

        assertInstanceOf(FileAlreadyExistsException.class, thrown.getCause());
        assertTrue(thrown.getMessage().contains(path.toString()), thrown.getMessage());
        assertArrayEquals(PRECIOUS, Files.readAllBytes(path), "the existing file was modified");
    }

    @Test
    void shouldRefuseToCreateThroughPrePlantedSymlink() throws Exception {
        final Path target = shm.path("victim");
        Files.write(target, PRECIOUS);
        final Path link = Files.createSymbolicLink(shm.path("file"), target);

        assertThrows(UncheckedIOException.class, () -> ShmFiles.create(shm, "file", 4096));

        assertArrayEquals(PRECIOUS, Files.readAllBytes(target), "the symlink target was modified");
        assertEquals(PRECIOUS.length, Files.size(target), "the symlink target was resized");
        assertTrue(Files.isSymbolicLink(link), "the symlink was replaced");
    }

    @Test
    void shouldRefuseToCreateThroughDanglingSymlink() throws Exception {
        final Path target = shm.path("not-there-yet");
        Files.createSymbolicLink(shm.path("file"), target);

        assertThrows(UncheckedIOException.class, () -> ShmFiles.create(shm, "file", 4096));

        assertFalse(Files.exists(target, LinkOption.NOFOLLOW_LINKS), "a file was created at the symlink's target");
    }

    @Test
    void shouldRefuseToOpenThroughSymlink() throws Exception {
        FileHeader.publish(ShmFiles.create(shm, "real", 4096).segment(), 1L, 1);
        Files.createSymbolicLink(shm.path("file"), shm.path("real"));

        final UncheckedIOException thrown = assertThrows(UncheckedIOException.class, () -> ShmFiles.open(shm, "file"));

        assertTrue(thrown.getMessage().contains(shm.path("file").toString()), thrown.getMessage());
    }

    @Test
    void shouldRefuseToOpenMissingFile() {
        final UncheckedIOException thrown = assertThrows(UncheckedIOException.class,
            () -> ShmFiles.open(shm, "missing"));

        assertTrue(thrown.getMessage().contains(shm.path("missing").toString()), thrown.getMessage());
    }

    @Test
    void shouldRejectNonPositiveSizeWithoutCreatingAFile() {
        for (final long size : new long[] {0, -1}) {
            final IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
                () -> ShmFiles.create(shm, "file", size));
            assertTrue(thrown.getMessage().contains(Long.toString(size)), thrown.getMessage());
        }
        assertFalse(Files.exists(shm.path("file"), LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void shouldStayUsableAfterUnlink() {
        final MappedFile created = ShmFiles.create(shm, "file", 4096);
        final MappedFile opened = ShmFiles.open(shm, "file");
        Words.putInt(created.segment(), 0, 1);

        created.unlink();

        assertFalse(Files.exists(shm.path("file"), LinkOption.NOFOLLOW_LINKS));
        Words.putIntVolatile(created.segment(), 128, 42);
        assertEquals(42, Words.getIntVolatile(opened.segment(), 128), "both mappings still share the pages");
        assertEquals(1, Words.getInt(opened.segment(), 0));
    }

    @Test
    void shouldTolerateUnlinkOfAlreadyRemovedFile() {
        final MappedFile created = ShmFiles.create(shm, "file", 4096);
        created.unlink();

        created.unlink();

        assertFalse(Files.exists(shm.path("file"), LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void shouldUnmapOnCloseAndTolerateASecondClose() throws Exception {
        final MappedFile file = ShmFiles.create(shm, "file", 4096);
        final MemorySegment segment = file.segment();

        file.close();
        file.close();

        assertFalse(segment.scope().isAlive());
        assertThrows(IllegalStateException.class, () -> Words.getInt(segment, 0));
        assertTrue(Files.exists(shm.path("file")), "closing does not remove the file");
    }

    @Test
    void shouldOpenFilesOfAnySizeWithoutAHeader() {
        for (final long size : new long[] {1, 8, FileHeader.LENGTH - 1, FileHeader.LENGTH}) {
            final MemorySegment created = ShmFiles.create(shm, "file-" + size, size).segment();
            final MemorySegment opened = ShmFiles.open(shm, "file-" + size).segment();

            created.set(ValueLayout.JAVA_BYTE, size - 1, (byte)7);

            assertEquals(size, opened.byteSize());
            assertEquals(7, opened.get(ValueLayout.JAVA_BYTE, size - 1), "both mappings share the page");
        }
    }

    @Test
    void shouldReserveTheStorageOfANewFile() throws Exception {
        try (Tmpfs tmpfs = Tmpfs.mount(TMPFS_BYTES)) {
            try (MappedFile file = MappedFile.create(tmpfs.path().resolve("file"), 6 * MIB)) {
                assertEquals(TMPFS_BYTES - 6 * MIB, FileSpace.usableBytes(tmpfs.path()),
                    "every page is taken at creation, none at the first store");
                file.segment().fill((byte)1);
            }
        }
    }

    @Test
    void shouldRefuseAFileLargerThanTheFreeSpaceAndLeaveNothing() throws Exception {
        try (Tmpfs tmpfs = Tmpfs.mount(TMPFS_BYTES)) {
            try (MappedFile first = MappedFile.create(tmpfs.path().resolve("first"), 6 * MIB)) {
                final Path second = tmpfs.path().resolve("second");

                final ShmSpaceException thrown = assertThrows(ShmSpaceException.class,
                    () -> MappedFile.create(second, 4 * MIB));

                assertEquals(4 * MIB, thrown.requestedBytes());
                assertEquals(TMPFS_BYTES - 6 * MIB, thrown.usableBytes());
                assertEquals(tmpfs.path(), thrown.directory());
                assertTrue(thrown.getMessage().contains(second.toString()), thrown.getMessage());
                assertFalse(Files.exists(second, LinkOption.NOFOLLOW_LINKS), "the failed file was left behind");
                assertEquals(TMPFS_BYTES - 6 * MIB, FileSpace.usableBytes(tmpfs.path()));
                first.segment().fill((byte)1);
            }
        }
    }

    @Test
    void shouldReturnTheSameSegmentEachTime() {
        final MappedFile file = ShmFiles.create(shm, "file", 4096);

        assertSame(file.segment(), file.segment());
    }
}
