package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.ShmTestDirectory;

/**
 * {@link Pages}: which pages a mapping of this process has in its page tables is its resident set in
 * {@code /proc/self/smaps} (a page of a tmpfs file counts there once this mapping has it mapped).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PagesTest {
    private static final int PAGES = 64;
    private static final long BYTES = PAGES * Pages.PAGE_BYTES;

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
    void shouldMapEveryPageWithOneCallAndChangeNoByte() throws Exception {
        final MemorySegment created = ShmFiles.create(shm, "file", BYTES).segment();
        Words.putLongVolatile(created, BYTES - Long.BYTES, 0x5EED_5EEDL);
        final MemorySegment opened = ShmFiles.open(shm, "file").segment();
        assertEquals(0, residentBytes(opened), "a new mapping has no page mapped");

        assertTrue(Pages.populate(opened, true), "madvise(MADV_POPULATE_WRITE) on Linux >= 5.14");

        assertEquals(BYTES, residentBytes(opened));
        assertEquals(0x5EED_5EEDL, Words.getLongVolatile(opened, BYTES - Long.BYTES));
        assertEquals(BYTES - Long.BYTES, MemorySegment.ofArray(new byte[(int)BYTES]).mismatch(opened));
    }

    @Test
    void shouldMapEveryPageWithTheSystemCallAloneWhenNoStoresAreAsked() throws Exception {
        final MemorySegment created = ShmFiles.create(shm, "file", BYTES).segment();
        Words.putLongVolatile(created, 3 * Pages.PAGE_BYTES, 0x5EED_5EEDL);
        final MemorySegment opened = ShmFiles.open(shm, "file").segment();

        assertTrue(Pages.populate(opened, false), "madvise(MADV_POPULATE_WRITE) on Linux >= 5.14");

        assertEquals(BYTES, residentBytes(opened));
        assertEquals(0x5EED_5EEDL, Words.getLongVolatile(opened, 3 * Pages.PAGE_BYTES));
    }

    @Test
    void shouldMapThePagesAroundTheEndsOfAnUnalignedRange() throws Exception {
        ShmFiles.create(shm, "file", BYTES);
        final MemorySegment opened = ShmFiles.open(shm, "file").segment();

        // From the last byte of page 3 to the first byte of page 6: pages 3 to 6.
        Pages.populate(opened.asSlice(4 * Pages.PAGE_BYTES - 1, 2 * Pages.PAGE_BYTES + 2), true);

        assertEquals(4 * Pages.PAGE_BYTES, residentBytes(opened));
    }

    @Test
    void shouldMapEveryPageByStoresInTheFallbackAndChangeNoByte() throws Exception {
        final MemorySegment created = ShmFiles.create(shm, "file", BYTES).segment();
        for (int page = 0; page < PAGES; page++) {
            created.set(ValueLayout.JAVA_LONG, page * Pages.PAGE_BYTES, 0x0102_0304_0506_0708L + page);
        }
        final MemorySegment opened = ShmFiles.open(shm, "file").segment();

        // Unaligned at both ends, so that the first word written is not the first byte of the range.
        Pages.write(opened.asSlice(Pages.PAGE_BYTES / 2 + 1, BYTES - Pages.PAGE_BYTES));

        assertEquals(BYTES, residentBytes(opened));
        for (int page = 0; page < PAGES; page++) {
            assertEquals(0x0102_0304_0506_0708L + page, opened.get(ValueLayout.JAVA_LONG, page * Pages.PAGE_BYTES));
        }
    }

    @Test
    void shouldWriteNoPageOfARangeWithoutAnAlignedWord() throws Exception {
        ShmFiles.create(shm, "file", BYTES);
        final MemorySegment opened = ShmFiles.open(shm, "file").segment();

        // Neither holds a 4-byte aligned word: no store, and none outside the range (which would throw).
        Pages.write(opened.asSlice(1, 3));
        Pages.write(opened.asSlice(Pages.PAGE_BYTES - 2, 4));

        assertEquals(0, residentBytes(opened));
    }

    @Test
    void shouldDoNothingForAnEmptyRange() {
        assertTrue(Pages.populate(MemorySegment.NULL, true));
    }

    /**
     * @return the resident bytes of the mapping that starts at {@code mapping}'s address, from
     *         {@code /proc/self/smaps}.
     */
    private static long residentBytes(final MemorySegment mapping) throws IOException {
        final String start = HexFormat.of().toHexDigits(mapping.address()).replaceFirst("^0+(?=.)", "");
        final List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(start + "-")) {
                for (int j = i + 1; j < lines.size(); j++) {
                    if (lines.get(j).startsWith("Rss:")) {
                        return Long.parseLong(lines.get(j).replaceAll("[^0-9]", "")) * 1024;
                    }
                }
            }
        }
        throw new AssertionError("no mapping at " + start + " in /proc/self/smaps");
    }
}
