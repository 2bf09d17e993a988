package org.rma4j.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.launch.JobResult;
import org.rma4j.test.ShmTestDirectory;

/**
 * Requests beyond the machine's means, made by real rank JVMs of small heap: each must end in an
 * {@code RmaException} of its class before anything is allocated, and leave the rank working. The timeout
 * only bounds a hang: a datatype walking 2^31 blocks or a rank that crashed would fail the assertions first.
 */
@Tag("reliability")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ResourceExhaustionTest {
    /** Mapping budget of the ranks: small, so that the test reaches it quickly. */
    private static final int MAPPINGS = 40;

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory("rma4j-reliability-");

    @Test
    void shouldRaiseAnErrorClassForEveryExhaustingRequestAndKeepTheRankWorking() throws Exception {
        final Jobs.Output output = new Jobs.Output();
        final JobResult result = Jobs.launcher(base.path(), 2, ExhaustionMain.class, output).jvmOption("-Xmx48m")
            .jvmOption("-Drma4j.mappings.max=" + MAPPINGS).build().run();
        final Jobs.Outcome outcome = new Jobs.Outcome(result, output);
        assertEquals(0, result.exitCode(), outcome::describe);
        for (int rank = 0; rank < 2; rank++) {
            assertEquals(List.of("vector-touching ok elements=" + Integer.MAX_VALUE),
                outcome.lines(rank, "vector-touching "), outcome::describe);
            assertEquals(List.of("vector-strided NO_MEM"), outcome.lines(rank, "vector-strided "), outcome::describe);
            assertEquals(List.of("vector-nested NO_MEM"), outcome.lines(rank, "vector-nested "), outcome::describe);
            assertEquals(List.of("vector-of-huge-contiguous NO_MEM"), outcome.lines(rank, "vector-of-huge-contiguous "),
                outcome::describe);
            assertEquals(List.of("contiguous-of-vector NO_MEM"), outcome.lines(rank, "contiguous-of-vector "),
                outcome::describe);
            assertEquals(List.of("group-range RANK"), outcome.lines(rank, "group-range "), outcome::describe);
            assertEquals(List.of("group-of RANK"), outcome.lines(rank, "group-of "), outcome::describe);
            assertEquals(List.of("windows NO_MEM live=" + MAPPINGS), outcome.lines(rank, "windows "),
                outcome::describe);
            assertEquals(List.of("allocMem NO_MEM"), outcome.lines(rank, "allocMem "), outcome::describe);
            assertEquals(List.of("windows-after-free ok live=" + MAPPINGS), outcome.lines(rank, "windows-after-free"),
                outcome::describe);
            assertEquals(List.of("allocMem-after-free ok bytes=64"), outcome.lines(rank, "allocMem-after-free"),
                outcome::describe);
        }
        final String maxMapCount;
        try (var in = java.nio.file.Files.newInputStream(java.nio.file.Path.of("/proc/sys/vm/max_map_count"))) {
            maxMapCount = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).trim();
        }
        final String windowsMessage = outcome.lines(0, "windows-message").getFirst();
        org.junit.jupiter.api.Assertions.assertTrue(windowsMessage.contains("holds " + MAPPINGS + " of the " + MAPPINGS)
            && windowsMessage.contains("vm.max_map_count=" + maxMapCount), windowsMessage);
        System.out.println("exhaustion messages: " + outcome.lines(0, "vector-strided-message") + " "
            + outcome.lines(0, "group-range-message") + " " + outcome.lines(0, "windows-message"));
        base.assertEmpty("by the exhaustion job");
    }
}
