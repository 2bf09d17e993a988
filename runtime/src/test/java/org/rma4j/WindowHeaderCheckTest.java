package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rma4j.internal.WindowLayout;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.ShmFormatException;

/**
 * An opener of a window file reads back everything its creator wrote into the header and the rank table:
 * one corrupted field makes the check throw, naming the file, the field, the expected and the found value.
 */
class WindowHeaderCheckTest {
    private static final Path PATH = Path.of("/dev/shm/rma4j-test/window-0");
    private static final long[] SIZES = {4096, 0, 100};
    private static final int[] DISP_UNITS = {8, 1, 4};
    private static final int CAPACITY = 16;

    static Stream<Arguments> corruptions() {
        final long entry2 = WindowLayout.rankEntryOffset(2);
        return Stream.of(
            Arguments.of("ranks", (Consumer<MemorySegment>)s -> putInt(s, WindowLayout.RANKS_OFFSET, 2), "2"),
            Arguments.of("flavor", (Consumer<MemorySegment>)s -> putInt(s, WindowLayout.FLAVOR_OFFSET, 0), "0"),
            Arguments.of("flags", (Consumer<MemorySegment>)s -> putInt(s, WindowLayout.FLAGS_OFFSET, 1), "1"),
            Arguments.of("notify capacity",
                (Consumer<MemorySegment>)s -> putInt(s, WindowLayout.NOTIFY_CAPACITY_OFFSET, 32), "32"),
            Arguments.of("lock section offset",
                (Consumer<MemorySegment>)s -> putLong(s, WindowLayout.LOCK_SECTION_OFFSET, 7), "7"),
            Arguments.of("notify section offset",
                (Consumer<MemorySegment>)s -> putLong(s, WindowLayout.NOTIFY_SECTION_OFFSET, 9), "9"),
            Arguments.of("complete section offset",
                (Consumer<MemorySegment>)s -> putLong(s, WindowLayout.COMPLETE_SECTION_OFFSET, 11), "11"),
            Arguments.of("size of rank 2",
                (Consumer<MemorySegment>)s -> putLong(s, entry2 + WindowLayout.ENTRY_SIZE_OFFSET, 101), "101"),
            Arguments.of("disp unit of rank 2",
                (Consumer<MemorySegment>)s -> putInt(s, entry2 + WindowLayout.ENTRY_DISP_UNIT_OFFSET, 2), "2"),
            Arguments.of("data offset of rank 2",
                (Consumer<MemorySegment>)s -> putLong(s, entry2 + WindowLayout.ENTRY_DATA_OFFSET, 12), "12"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corruptions")
    void shouldNameTheFieldTheExpectedAndTheFoundValueOfACorruptedHeader(final String field,
        final Consumer<MemorySegment> corrupt, final String found) {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment file = windowFile(arena);
            assertDoesNotThrow(() -> check(file));
            corrupt.accept(file);
            final ShmFormatException e = assertThrows(ShmFormatException.class, () -> check(file));
            final String message = e.getMessage();
            assertTrue(message.contains(PATH.toString()), message);
            assertTrue(message.contains(field + " at offset "), message);
            assertTrue(message.contains("expected "), message);
            assertTrue(message.contains("found " + found), message);
        }
    }

    private static MemorySegment windowFile(final Arena arena) {
        final long length = WindowLayout.placeSegments(SIZES, CAPACITY, false, new long[SIZES.length]);
        final MemorySegment file = arena.allocate(length, 4096);
        WindowCreation.writeHeader(file, WindowFlavor.SHARED, SIZES, DISP_UNITS, CAPACITY, false);
        FileHeader.publish(file, WindowLayout.MAGIC, WindowLayout.VERSION);
        return file;
    }

    private static void check(final MemorySegment file) {
        WindowLayout.checkHeader(file, PATH, WindowFlavor.SHARED.code(), 0, CAPACITY, SIZES, DISP_UNITS);
    }

    private static void putInt(final MemorySegment segment, final long offset, final int value) {
        segment.set(ValueLayout.JAVA_INT, offset, value);
    }

    private static void putLong(final MemorySegment segment, final long offset, final long value) {
        segment.set(ValueLayout.JAVA_LONG, offset, value);
    }
}
