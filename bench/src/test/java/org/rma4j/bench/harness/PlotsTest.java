package org.rma4j.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.rma4j.examples.notified.Sync;

/** The plots' content: ratio panels with their 1.0 line, byte labels, subtitles, palette and markers. */
class PlotsTest {

    @Test
    void shouldLabelSizesInBytes() {
        assertEquals("8 B", Plots.bytes(8));
        assertEquals("1000 B", Plots.bytes(1000));
        assertEquals("1 KiB", Plots.bytes(1024));
        assertEquals("1.5 KiB", Plots.bytes(1536));
        assertEquals("64 KiB", Plots.bytes(65536));
        assertEquals("1 MiB", Plots.bytes(1 << 20));
        assertEquals("8 B", Plots.log2SizeLabel(3));
        assertEquals("1 KiB", Plots.log2SizeLabel(10));
        assertEquals("1 MiB", Plots.log2SizeLabel(20));
        assertEquals("", Plots.log2SizeLabel(2.5));
    }

    @Test
    void shouldDrawOnePanelPerSchemeWithRatiosToOpenMpiAndTheOneLine() {
        final List<XYChart> panels = Plots.ratioPanels(ReportWriterTest.sample());
        // the sample has Open MPI put+flush+flag and send/recv, rma4j notified put and put+flush+flag
        assertEquals(List.of("notified put", "put + flush + flag", "send / recv"),
            panels.stream().map(XYChart::getTitle).toList());
        for (final XYChart panel : panels) {
            final XYSeries one = panel.getSeriesMap().get(Plots.REFERENCE_SERIES);
            assertTrue(one != null, panel.getTitle() + ": no 1.0 line in " + panel.getSeriesMap().keySet());
            assertTrue(Arrays.stream(one.getYData()).allMatch(y -> y == 1.0), panel.getTitle());
            assertEquals("1 KiB", panel.getStyler().getxAxisTickLabelsFormattingFunction().apply(10.0));
            assertTrue(panel.getYAxisTitle().startsWith("time ÷ Open MPI's"), panel.getYAxisTitle());
        }
        // rma4j put+flush+flag 300 ns / Open MPI 800 ns; notified put 400 ns / 800 ns and / 1000 ns
        final XYSeries putFlush = panels.get(1).getSeriesMap().get("rma4j");
        assertEquals(List.of(0.375, 0.375), Arrays.stream(putFlush.getYData()).boxed().toList());
        assertEquals(List.of(3.0, 10.0), Arrays.stream(putFlush.getXData()).boxed().toList());
        final XYSeries notified = panels.get(0).getSeriesMap().get("rma4j notified put ÷ Open MPI put+flush+flag");
        assertEquals(List.of(0.5, 0.5), Arrays.stream(notified.getYData()).boxed().toList());
        final XYSeries notifiedVsSendRecv = panels.get(2).getSeriesMap().get("rma4j notified put ÷ Open MPI send/recv");
        assertEquals(List.of(0.4, 0.4), Arrays.stream(notifiedVsSendRecv.getYData()).boxed().toList());
    }

    @Test
    void shouldDivideByTheC11FloorWithoutOpenMpi() {
        final Results sample = ReportWriterTest.sample();
        final Results noMpi = new Results(sample.info(),
            sample.measurements().stream().filter(m -> !m.impl().equals(Rows.OPENMPI)).toList(), sample.notes(),
            sample.floorProbesNs(), sample.applications());
        final List<XYChart> panels = Plots.ratioPanels(noMpi);
        assertEquals(List.of("notified put", "put + flush + flag"), panels.stream().map(XYChart::getTitle).toList());
        final XYSeries notified = panels.get(0).getSeriesMap().get("rma4j notified put");
        // 400 ns / the C11 floor's 100 ns
        assertEquals(List.of(4.0, 4.0), Arrays.stream(notified.getYData()).boxed().toList());
        assertTrue(panels.get(0).getSeriesMap().containsKey(Plots.REFERENCE_SERIES));
        assertEquals("time ÷ C11 floor's", panels.get(0).getYAxisTitle());
    }

    @Test
    void shouldNameMachineAndRanksPerCoreInTheSubtitle() {
        final Results.RunInfo info = ReportWriterTest.sample().info();
        assertEquals("test machine · 2 ranks on 2 cores · 2026-11-21", Plots.subtitle(info, List.of(2)));
        assertEquals("test machine · 2 and 4 ranks on 2 cores · 2026-11-21", Plots.subtitle(info, List.of(2, 4)));
    }

    @Test
    void shouldGiveEveryImplementationAndVariantItsOwnColourFromTheOkabeItoPalette() {
        final Set<Color> implColors = new HashSet<>(Plots.IMPL_COLORS.values());
        assertEquals(Plots.IMPL_COLORS.size(), implColors.size());
        assertTrue(Plots.OKABE_ITO.containsAll(implColors));
        final Set<Color> variantColors = new HashSet<>();
        for (final Sync sync : Sync.values()) {
            variantColors.add(Plots.variantColor(sync));
        }
        assertEquals(Sync.values().length, variantColors.size());
        assertTrue(Plots.OKABE_ITO.containsAll(variantColors));
        final Map<String, ?> markers = Plots.ROW_MARKERS;
        for (final String row : List.of("notified-put", "put-flush-flag", "send-recv", "pscw", "fence", "floor")) {
            assertTrue(markers.containsKey(row), row);
        }
        assertEquals(6, new HashSet<>(List.of("notified-put", "put-flush-flag", "send-recv", "pscw", "fence", "floor")
            .stream().map(markers::get).toList()).size());
    }
}
