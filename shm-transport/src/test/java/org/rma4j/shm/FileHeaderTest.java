package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.ShmTestDirectory;

@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FileHeaderTest {
    private static final long MAGIC = 0x1122_3344_5566_7788L;
    private static final int VERSION = 3;

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
    void shouldWriteEveryFieldAndTheReadyFlagOnPublish() {
        final MemorySegment segment = ShmFiles.create(shm, "file", 4096).segment();

        FileHeader.publish(segment, MAGIC, VERSION);

        assertEquals(MAGIC, Words.getLong(segment, FileHeader.MAGIC_OFFSET));
        assertEquals(VERSION, Words.getInt(segment, FileHeader.VERSION_OFFSET));
        assertEquals(4096L, Words.getLong(segment, FileHeader.SIZE_OFFSET));
        assertEquals(1, Words.getIntAcquire(segment, FileHeader.READY_OFFSET));
    }

    @Test
    void shouldPassCheckOfPublishedFileInAnotherMapping() {
        FileHeader.publish(ShmFiles.create(shm, "file", 4096).segment(), MAGIC, VERSION);

        final MappedFile opened = ShmFiles.open(shm, "file");

        assertDoesNotThrow(() -> FileHeader.check(opened.segment(), opened.path(), MAGIC, VERSION));
    }

    @Test
    void shouldRejectWrongMagicNamingFileAndValue() {
        FileHeader.publish(ShmFiles.create(shm, "file", 4096).segment(), 0xCAFEL, VERSION);
        final MappedFile opened = ShmFiles.open(shm, "file");

        final ShmFormatException thrown = assertThrows(ShmFormatException.class,
            () -> FileHeader.check(opened.segment(), opened.path(), MAGIC, VERSION));

        assertMessageNames(thrown, opened.path(), "0x000000000000cafe");
        assertMessageNames(thrown, opened.path(), "0x1122334455667788");
    }

    @Test
    void shouldRejectWrongVersionNamingFileAndValue() {
        FileHeader.publish(ShmFiles.create(shm, "file", 4096).segment(), MAGIC, 99);
        final MappedFile opened = ShmFiles.open(shm, "file");

        final ShmFormatException thrown = assertThrows(ShmFormatException.class,
            () -> FileHeader.check(opened.segment(), opened.path(), MAGIC, VERSION));

        assertMessageNames(thrown, opened.path(), "version 99");
    }

    @Test
    void shouldRejectUnpublishedFile() {
        final MemorySegment segment = ShmFiles.create(shm, "file", 4096).segment();
        // Every field but the ready flag, as a creator that died half-way through would leave it.
        Words.putLong(segment, FileHeader.MAGIC_OFFSET, MAGIC);
        Words.putInt(segment, FileHeader.VERSION_OFFSET, VERSION);
        Words.putLong(segment, FileHeader.SIZE_OFFSET, 4096L);
        final MappedFile opened = ShmFiles.open(shm, "file");

        final ShmFormatException thrown = assertThrows(ShmFormatException.class,
            () -> FileHeader.check(opened.segment(), opened.path(), MAGIC, VERSION));

        assertMessageNames(thrown, opened.path(), "ready");
    }

    @Test
    void shouldRejectReadyFlagOtherThanOne() {
        final MemorySegment segment = ShmFiles.create(shm, "file", 4096).segment();
        FileHeader.publish(segment, MAGIC, VERSION);
        Words.putIntVolatile(segment, FileHeader.READY_OFFSET, 2);

        final ShmFormatException thrown = assertThrows(ShmFormatException.class,
            () -> FileHeader.check(segment, shm.path("file"), MAGIC, VERSION));

        assertMessageNames(thrown, shm.path("file"), "ready");
    }

    @Test
    void shouldRejectTruncatedFileAfterOpen() throws Exception {
        final Path path = shm.path("file");
        Files.write(path, new byte[10]);
        final MemorySegment opened = ShmFiles.open(shm, "file").segment();

        final ShmFormatException thrown = assertThrows(ShmFormatException.class,
            () -> FileHeader.check(opened, path, MAGIC, VERSION));

        assertMessageNames(thrown, path, "size 10");
    }

    @Test
    void shouldRejectSegmentSmallerThanTheHeader() {
        final MemorySegment segment = ShmFiles.create(shm, "file", 4096).segment();
        FileHeader.publish(segment, MAGIC, VERSION);
        final Path path = shm.path("file");

        final ShmFormatException thrown = assertThrows(ShmFormatException.class,
            () -> FileHeader.check(segment.asSlice(0, 10), path, MAGIC, VERSION));

        assertMessageNames(thrown, path, "size 10");
    }

    @Test
    void shouldRejectFileWhoseSizeDiffersFromTheRecordedSize() throws Exception {
        FileHeader.publish(ShmFiles.create(shm, "file", 4096).segment(), MAGIC, VERSION);
        final Path path = shm.path("file");
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
            file.setLength(8192);
        }
        final MappedFile opened = ShmFiles.open(shm, "file");

        final ShmFormatException thrown = assertThrows(ShmFormatException.class,
            () -> FileHeader.check(opened.segment(), path, MAGIC, VERSION));

        assertMessageNames(thrown, path, "size 8192");
        assertMessageNames(thrown, path, "recorded 4096");
    }

    @Test
    void shouldDeriveEachOffsetFromThePreviousField() {
        assertEquals(0, FileHeader.MAGIC_OFFSET);
        assertEquals(8, FileHeader.VERSION_OFFSET);
        assertEquals(12, FileHeader.READY_OFFSET);
        assertEquals(16, FileHeader.SIZE_OFFSET);
        assertEquals(24, FileHeader.LENGTH);
    }

    @Test
    void shouldNameTheReadyFlagFoundAndExpected() {
        final MemorySegment segment = ShmFiles.create(shm, "file", 4096).segment();
        FileHeader.publish(segment, MAGIC, VERSION);
        Words.putIntVolatile(segment, FileHeader.READY_OFFSET, 7);

        final ShmFormatException thrown = assertThrows(ShmFormatException.class,
            () -> FileHeader.check(segment, shm.path("file"), MAGIC, VERSION));

        assertMessageNames(thrown, shm.path("file"), "ready flag is 7, expected 1");
    }

    private static void assertMessageNames(final ShmFormatException thrown, final Path path, final String value) {
        final String message = thrown.getMessage();
        assertTrue(message.contains(path.toString()), "message does not name the file: " + message);
        assertTrue(message.contains(value), "message does not name '" + value + "': " + message);
    }
}
