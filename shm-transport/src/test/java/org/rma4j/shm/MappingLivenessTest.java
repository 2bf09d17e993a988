package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.ShmTestDirectory;

@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MappingLivenessTest {
    private static final long MAGIC = 0x4D41505445535431L;
    private static final int VERSION = 1;

    private ShmTestDirectory shm;
    private MappedFile file;

    @BeforeEach
    void setUp() throws Exception {
        shm = new ShmTestDirectory();
        file = shm.track(MappedFile.create(shm.path("win-0"), 3 * 4096 + 100));
        FileHeader.publish(file.segment(), MAGIC, VERSION);
    }

    @AfterEach
    void tearDown() throws Exception {
        shm.close();
    }

    @Test
    void shouldPassAnIntactFileAndRunThePeersCheck() {
        final AtomicInteger peerChecks = new AtomicInteger();

        MappingLiveness.of(peerChecks::incrementAndGet, file, MAGIC, VERSION).check();

        assertTrue(peerChecks.get() == 1);
        assertTrue(Futex.isBacked(file.segment(), 0));
    }

    @Test
    void shouldNameAFileTruncatedUnderItsMappingWithoutTouchingIt() throws Exception {
        final Liveness liveness = MappingLiveness.of(Liveness.NONE, file, MAGIC, VERSION);
        for (final long length : new long[] {4096, 0}) {
            try (FileChannel channel = FileChannel.open(file.path(), StandardOpenOption.WRITE)) {
                channel.truncate(length);
            }

            final ShmFormatException thrown = assertThrows(ShmFormatException.class, liveness::check);

            assertTrue(thrown.getMessage().contains(file.path().toString())
                && thrown.getMessage().contains("was truncated while the job used it"), thrown.getMessage());
            assertFalse(Futex.isBacked(file.segment(), 3 * 4096));
        }
    }

    @Test
    void shouldNameAFileWhoseHeaderWasOverwritten() throws Exception {
        Words.putLong(file.segment(), FileHeader.MAGIC_OFFSET, 0);

        final ShmFormatException thrown = assertThrows(ShmFormatException.class,
            MappingLiveness.of(Liveness.NONE, file, MAGIC, VERSION)::check);

        assertTrue(thrown.getMessage().contains("magic"), thrown.getMessage());
    }

    @Test
    void shouldExplainAFaultOfATruncatedFileAndPassOnOtherFaults() throws Exception {
        final MappingLiveness check = MappingLiveness.of(Liveness.NONE, file, MAGIC, VERSION);
        final InternalError fault = new InternalError("a fault occurred in an unsafe memory access operation");

        assertSame(fault, check.explain(fault));

        try (FileChannel channel = FileChannel.open(file.path(), StandardOpenOption.WRITE)) {
            channel.truncate(0);
        }
        final ShmFormatException named = assertThrows(ShmFormatException.class, () -> check.explain(fault));
        assertSame(fault, named.getCause());
    }
}
