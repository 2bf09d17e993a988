package org.rma4j.litmus.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rma4j.litmus.Seeds;
import org.rma4j.litmus.model.ModelOptions;

class SuiteTest {
    @Test
    void shouldRunADirectoryAndSummarizePerRule(@TempDir final Path dir) throws Exception {
        for (final String name : List.of("core-fig6", "core-fig8", "mpi-lock-counter")) {
            Files.copy(Seeds.directory().resolve(name + ".litmus"), dir.resolve(name + ".litmus"));
        }
        Files.writeString(dir.resolve("broken.litmus"), "RMA broken\n{ X@0 = 0; }\nP0 ;\nr = Y ;\n");
        final List<String> progress = new ArrayList<>();
        final RunConfig config = new RunConfig(200, 1, 20, RunConfig.Mode.THREADS, null);
        final List<Suite.Row> rows = Suite.run(Suite.files(List.of(dir)), config, ModelOptions.stock(), progress::add);
        assertEquals(4, rows.size());
        assertEquals(4, progress.size());
        assertTrue(progress.get(0).startsWith("[1/4] broken ERROR broken.litmus:4:5: unknown variable Y"),
            progress.get(0));
        assertTrue(progress.get(1).startsWith("[2/4] core-fig6 PASS"), progress.get(1));
        final Suite.Row fig8 = rows.get(2);
        assertEquals("core-fig8", fig8.name());
        assertEquals(2, fig8.procs());
        assertEquals(11, fig8.size(), "3 actions at P0, 2 + 2 + 1 + 1 at P1, 2 initial writes");
        assertEquals(9, fig8.allowed());
        assertTrue(fig8.rules().contains("IR"));
        final List<SuiteReport.RuleRow> ruleRows = SuiteReport.ruleRows(rows);
        final SuiteReport.RuleRow summary = ruleRows.getLast();
        assertEquals("Summary", summary.rule());
        assertEquals(4, summary.tests());
        assertEquals(1, summary.errors());
        final SuiteReport.RuleRow ir = ruleRows.stream().filter(r -> r.rule().equals("IR")).findFirst().orElse(null);
        assertNotNull(ir);
        assertEquals(2, ir.tests());
        final String md = SuiteReport.markdown(rows, config, ModelOptions.stock());
        assertTrue(md.contains("| IR | 2 | "), md);
        assertTrue(md.contains("| core-fig6 | 2 |"), md);
        final String json = SuiteReport.json(rows, config, ModelOptions.stock());
        assertTrue(json.contains("\"rule\": \"IR\", \"procs\": 2"), json);
        assertTrue(json.contains("\"name\": \"broken\""), json);
        assertTrue(json.contains("\"passed\": false, \"error\": \"broken.litmus:4:5: unknown variable Y"), json);
    }
}
