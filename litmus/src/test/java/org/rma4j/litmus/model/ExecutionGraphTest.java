package org.rma4j.litmus.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rma4j.litmus.Seeds;
import org.rma4j.litmus.syntax.Program;

/** The Graphviz pictures of executions, tested as dot text (no Graphviz needed). */
class ExecutionGraphTest {
    static List<String> seedNames() {
        return Seeds.names();
    }

    @Test
    void shouldDrawTheIrCycleThatForbidsFigure6sOutcome() {
        final Program p = Seeds.load("core-fig6");
        final ExecutionGraph.Picture pic = ExecutionGraph.of(p, ModelOptions.stock(), p.condition().prop());
        assertFalse(pic.allowed());
        assertEquals(Rule.IR, pic.rule());
        assertTrue(pic.dot().contains("subgraph cluster_p0") && pic.dot().contains("subgraph cluster_p1"), pic.dot());
        assertTrue(pic.dot().contains("[label=\"IR\", color=red, penwidth=3"), pic.dot());
        assertTrue(pic.dot().contains("[label=\"fr\", color=red, penwidth=3"), pic.dot());
        assertTrue(pic.dot().contains("label=\"po\""), pic.dot());
        assertTrue(pic.dot().contains("label=\"rf\""), pic.dot());
    }

    @Test
    void shouldDrawAnExecutionOfAnAllowedOutcomeWithoutACycle() {
        final Program p = Seeds.load("core-fig6");
        final ExecutionGraph.Picture pic = ExecutionGraph.of(p, ModelOptions.stock().withIr(false),
            p.condition().prop());
        assertTrue(pic.allowed());
        assertFalse(pic.dot().contains("penwidth=3"), pic.dot());
    }

    @Test
    void shouldShowStoreBufferingThroughAccumulatesAsR1sCycleAndAsAllowedUnderMpi() {
        final Program p = Seeds.load("sb-acc-fop");
        assertEquals(Rule.R1, ExecutionGraph.of(p, ModelOptions.stock(), p.condition().prop()).rule());
        assertTrue(ExecutionGraph.of(p, ModelOptions.mpi(), p.condition().prop()).allowed());
    }

    @ParameterizedTest
    @MethodSource("seedNames")
    void committedPicturesMatchTheModel(final String name) throws Exception {
        final Program p = Seeds.load(name);
        try (InputStream in = Seeds.class.getResourceAsStream("/litmus/" + name + ".dot")) {
            assertTrue(in != null, "no committed picture " + name + ".dot: run 'graph -o' on the shipped files");
            final String committed = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(committed, ExecutionGraph.of(p, ModelOptions.stock(), p.condition().prop()).dot());
        }
    }
}
