package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.rma4j.test.ShmTestDirectory;

/**
 * A real JFR recording of a two-rank process job ({@link WaitEventScenarios#blockInEveryWait}), each rank
 * started with {@code -XX:StartFlightRecording} and the runtime's {@code rma4j.jfc}: every blocking call
 * the job makes wait is in the recording with its window, peer, tag and a positive duration.
 */
@Timeout(300)
class WaitEventRecordingTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    @TempDir
    Path recordings;

    @Test
    void shouldRecordEveryBlockingCallThatWaitedWithWindowPeerAndDuration() throws Exception {
        final Path settings = Path.of(WaitEventRecordingTest.class.getResource("/rma4j.jfc").toURI());
        Scenarios.runProcesses(base, 2, WaitEventScenarios.class, "blockInEveryWait",
            "-XX:StartFlightRecording=filename=" + recordings.resolve("rank-%p.jfr") + ",settings=" + settings
                + ",dumponexit=true");
        final List<RecordedEvent> events = read(recordings);
        final int window = WaitEventScenarios.WINDOW;
        expect(events, "org.rma4j.LockWait", 0, window, 1, -1);
        expect(events, "org.rma4j.Fence", 0, window, -1, -1);
        expect(events, "org.rma4j.PscwStart", 0, window, 1, -1);
        expect(events, "org.rma4j.PscwWait", 1, window, 0, -1);
        expect(events, "org.rma4j.NotifyWait", 0, window, 1, WaitEventScenarios.NOTIFY_TAG);
        expect(events, "org.rma4j.MessagingReceive", 0, -1, 1, WaitEventScenarios.MESSAGE_TAG);
        expect(events, "org.rma4j.Barrier", 0, -1, -1, -1);
        for (final RecordedEvent event : events) {
            if (event.getEventType().getName().startsWith("org.rma4j.")) {
                assertEquals(List.of("rma4j"), event.getEventType().getCategoryNames(), event::toString);
                assertNotNull(event.getEventType().getLabel(), event::toString);
            }
        }
    }

    /**
     * Asserts that {@code rank} recorded an event {@code name} on {@code window} for {@code peer} and
     * {@code tag} that lasted at least one liveness period (the other rank released the wait only after
     * seeing it published, which a rank does at its first liveness check, after 100 ms).
     */
    private static void expect(final List<RecordedEvent> events, final String name, final int rank, final int window,
        final int peer, final int tag) {
        final List<RecordedEvent> matching = events.stream()
            .filter(e -> e.getEventType().getName().equals(name) && e.getInt("rank") == rank
                && e.getInt("window") == window && e.getInt("peer") == peer && e.getInt("tag") == tag)
            .toList();
        assertFalse(matching.isEmpty(),
            () -> "no " + name + " of rank " + rank + " on window " + window + " for peer " + peer + ", tag " + tag
                + " among:\n" + events.stream().filter(e -> e.getEventType().getName().startsWith("org.rma4j."))
                    .map(RecordedEvent::toString).collect(Collectors.joining("\n")));
        final Duration longest = matching.stream().map(RecordedEvent::getDuration).max(Duration::compareTo).get();
        assertTrue(longest.compareTo(Duration.ofMillis(50)) > 0, () -> name + " lasted only " + longest);
        assertNotNull(matching.get(0).getString("call"));
    }

    private static List<RecordedEvent> read(final Path directory) throws IOException {
        final List<RecordedEvent> events = new ArrayList<>();
        final List<Path> files;
        try (Stream<Path> listing = Files.list(directory)) {
            files = listing.filter(p -> p.toString().endsWith(".jfr")).toList();
        }
        assertEquals(2, files.size(), () -> "one recording per rank: " + files);
        for (final Path file : files) {
            events.addAll(RecordingFile.readAllEvents(file));
        }
        return events;
    }

}
