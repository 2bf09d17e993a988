package org.rma4j.litmus.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.rma4j.litmus.Seeds;
import org.rma4j.litmus.model.ModelOptions;

/**
 * The quick run of every shipped litmus file on real rma4j processes that {@code mvn -B verify}
 * includes: few runs per file, so that the whole suite stays within a small time budget; the point
 * is that no file fails to run and no forbidden state appears.
 */
class ShippedSuiteProcessTest {
    @Test
    void everyShippedFileRunsOnProcessesWithoutForbiddenStates() throws Exception {
        final RunConfig config = new RunConfig(100, 11, 50, RunConfig.Mode.PROCESSES, null);
        final List<String> progress = new ArrayList<>();
        final List<Suite.Row> rows = Suite.run(Suite.files(List.of(Seeds.directory())), config, ModelOptions.stock(),
            progress::add);
        assertEquals(Seeds.names().size(), rows.size());
        for (final Suite.Row row : rows) {
            assertTrue(row.passed(),
                row.name() + ": " + (row.error() != null ? row.error() : row.forbidden() + " forbidden state(s)") + "\n"
                    + String.join("\n", progress));
            assertEquals(100, row.runs(), row.name());
        }
    }
}
