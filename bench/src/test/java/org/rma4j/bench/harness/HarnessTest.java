package org.rma4j.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The command end to end with one Java scenario and no peers, then re-rendering from its JSON.
 */
class HarnessTest {
    @TempDir
    Path out;

    @Test
    void shouldWriteJsonMarkdownAndPlotsThenRerenderFromJson() throws IOException {
        final List<String> log = new ArrayList<>();
        final int exit = new CommandLine(new Harness(log::add)).execute("--out", out.toString(), "--name", "t",
            "--java", "floor", "--peers", "none", "--sizes", "8,64", "-n", "50", "-w", "10", "--bw-samples", "2");
        assertEquals(0, exit, String.join("\n", log));
        final Results results = Results.read(out.resolve("t.json"));
        assertEquals(2, results.measurements().size());
        assertTrue(results.notes().stream().anyMatch(n -> n.startsWith("rma4j send-recv")), results.notes().toString());
        assertTrue(results.notes().contains("C peers not run (--peers none)."));
        assertTrue(results.floorProbesNs().isEmpty(), "no probes without peers");
        final String md = Files.readString(out.resolve("t.md"));
        assertTrue(md.contains("| 8 B |"), md);
        assertTrue(Files.size(out.resolve("t-latency.png")) > 0);

        Files.delete(out.resolve("t.md"));
        final int rerender = new CommandLine(new Harness(log::add)).execute("--from-json", out.resolve("t.json").toString());
        assertEquals(0, rerender, String.join("\n", log));
        assertEquals(md, Files.readString(out.resolve("t.md")));
    }

    @Test
    void shouldRejectAnUnknownScenario() {
        final int exit = new CommandLine(new Harness(line -> { })).execute("--out", out.toString(), "--java", "nope",
            "--peers", "none");
        assertTrue(exit != 0);
    }
}
