package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The range check of a target's memory (MPI-3.1 section 11.3.1, {@code target_disp x disp_unit}) on both of its
 * paths: displacements below 2^32 without a 128-bit product, larger ones with it. Only the check runs here (no
 * memory is touched), so a target of a terabyte costs nothing.
 */
class TargetRangeTest {
    private static final long TERABYTE = 1L << 40;

    private static TargetMemory.Part target(final long size, final int dispUnit) {
        return new TargetMemory.Part(MemorySegment.NULL, size, dispUnit, MemorySegment.NULL, 0);
    }

    @ParameterizedTest(name = "disp {0} x unit {1}, {2} bytes")
    @CsvSource({"0, 1, 8, 0", "4294967295, 1, 8, 4294967295", // the last displacement of the fast path
        "4294967296, 1, 8, 4294967296", // the first of the exact path
        "8589934592, 8, 8, 68719476736", "137438953471, 8, 8, 1099511627768", // the last 8 bytes of the terabyte
        "1073741824, 1024, 0, 1099511627776", // zero bytes at the end
        "3, 2147483647, 1, 6442450941", // the largest unit
    })
    void shouldReturnTheByteOffsetOfADisplacementInside(final long disp, final int unit, final long length,
        final long offset) {
        assertEquals(offset, target(TERABYTE, unit).checkRange("put", 1, disp, length));
    }

    @ParameterizedTest(name = "disp {0} x unit {1}, {2} bytes")
    @CsvSource({"137438953472, 8, 8", // one element past the end, exact path
        "137438953471, 8, 9", // overlaps the end by a byte
        "2305843009213693953, 8, 8", // (2^61 + 1) x 8 wraps to byte 8
        "9223372036854775807, 1, 1", "9223372036854775807, 2147483647, 1", "4294967295, 2147483647, 1", // fast path's largest product, past a terabyte
        "0, 1, 1099511627777", // longer than the target
    })
    void shouldRejectARangeOutsideTheTarget(final long disp, final int unit, final long length) {
        final RmaException e = assertThrows(RmaException.class,
            () -> target(TERABYTE, unit).checkRange("put", 1, disp, length));
        assertEquals(ErrorClass.RMA_RANGE, e.errorClass());
        assertTrue(e.getMessage().contains("target_disp=" + disp), e.getMessage());
        assertTrue(e.getMessage().contains("exceeds window size " + TERABYTE + " of rank 1"), e.getMessage());
    }

    @ParameterizedTest(name = "disp {0}, {1} bytes")
    @CsvSource({"0, -1", "4294967296, -8"})
    void shouldRejectANegativeLengthAsACount(final long disp, final long length) {
        final RmaException e = assertThrows(RmaException.class,
            () -> target(TERABYTE, 1).checkRange("get", 0, disp, length));
        assertEquals(ErrorClass.COUNT, e.errorClass());
        assertTrue(e.getMessage().contains("length=" + length), e.getMessage());
    }
}
