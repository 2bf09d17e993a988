package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class RankStateTest {
    @Test
    void shouldDecodeEveryOrdinal() {
        for (final RankState state : RankState.values()) {
            assertSame(state, RankState.of(state.ordinal()));
        }
    }

    @Test
    void shouldKeepTheEncodingOfTheControlFile() {
        // The ordinals are stored in shared files: EMPTY must be the zero of a fresh file.
        assertSame(RankState.EMPTY, RankState.of(0));
        assertSame(RankState.JOINED, RankState.of(1));
        assertSame(RankState.FINISHED, RankState.of(2));
        assertSame(RankState.FAILED, RankState.of(3));
    }

    @Test
    void shouldDecodeUnknownCodesAsFailed() {
        assertSame(RankState.FAILED, RankState.of(-1));
        assertSame(RankState.FAILED, RankState.of(RankState.values().length));
        assertSame(RankState.FAILED, RankState.of(Integer.MAX_VALUE));
        assertSame(RankState.FAILED, RankState.of(Integer.MIN_VALUE));
    }
}
