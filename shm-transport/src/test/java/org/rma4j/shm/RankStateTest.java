package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class RankStateTest {
    @Test
    void shouldDecodeEveryCode() {
        for (final RankState state : RankState.values()) {
            assertSame(state, RankState.of(state.code()));
        }
    }

    /**
     * The codes are stored in control files: a change of code, or a new state that takes an old code, breaks
     * every process that maps a file of the same layout version. EMPTY must be the zero of a fresh file.
     */
    @Test
    void shouldKeepTheOnDiskCodesOfTheControlFile() {
        assertEquals(0, RankState.EMPTY.code());
        assertEquals(1, RankState.JOINED.code());
        assertEquals(2, RankState.FINISHED.code());
        assertEquals(3, RankState.FAILED.code());
        assertEquals(4, RankState.JOINING.code());
        assertEquals(5, RankState.ABORTED.code());
        assertEquals(6, RankState.ELSEWHERE.code());
        assertEquals(7, RankState.values().length, "a new state needs a new code and a test line here");
    }

    @Test
    void shouldGiveEveryStateItsOwnCode() {
        assertEquals(RankState.values().length,
            Arrays.stream(RankState.values()).mapToInt(RankState::code).distinct().count());
    }

    @Test
    void shouldDecodeUnknownCodesAsFailed() {
        assertSame(RankState.FAILED, RankState.of(-1));
        assertSame(RankState.FAILED, RankState.of(RankState.values().length));
        assertSame(RankState.FAILED, RankState.of(Integer.MAX_VALUE));
        assertSame(RankState.FAILED, RankState.of(Integer.MIN_VALUE));
    }
}
