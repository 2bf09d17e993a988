package org.rma4j.examples.notified;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Sync}: command-line selection of variants.
 */
class SyncTest {
    private static final List<Sync> SUPPORTED = List.of(Sync.NOTIFIED, Sync.SEND_RECV, Sync.FENCE);

    @Test
    void allSelectsTheSupportedVariantsInOrder() {
        assertEquals(SUPPORTED, Sync.select(" ALL ", SUPPORTED));
    }

    @Test
    void aLabelSelectsOneVariant() {
        assertEquals(List.of(Sync.SEND_RECV), Sync.select("sendrecv", SUPPORTED));
    }

    @Test
    void unknownAndUnsupportedLabelsAreRejectedWithTheChoices() {
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> Sync.select("mpi", SUPPORTED));
        assertEquals("unknown variant 'mpi'; expected all or one of notified|sendrecv|fence", unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Sync.select("pscw", SUPPORTED));
    }
}
