package org.rma4j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.shm.JobDirectory;
import org.rma4j.test.ShmTestDirectory;

/**
 * A window file truncated under a running job (through {@code /proc/<rank>/map_files}, as root: the file
 * has no name left by then) while a rank sleeps in fence: the fence ends with an error naming the file,
 * instead of sleeping forever on a futex of a page that no longer exists.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class WindowFileTruncatedTest {
    private static final Pattern READY = Pattern.compile("\\[(\\d+)] ready (\\d+)");

    private ShmTestDirectory base;
    private Path go;

    @BeforeEach
    void setUp() throws IOException {
        base = new ShmTestDirectory("launch-test-");
        go = Files.createTempDirectory("truncated-window-").resolve("go");
    }

    @AfterEach
    void tearDown() throws IOException {
        try {
            base.close();
        } finally {
            Files.deleteIfExists(go);
            Files.deleteIfExists(go.getParent());
        }
    }

    @Test
    void shouldEndAFenceWithANamedErrorWhenTheWindowFileIsTruncated() throws Exception {
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final List<String> all = Collections.synchronizedList(new ArrayList<>());
        final Thread runner = Thread.ofPlatform().daemon().start(() -> {
            try {
                final JobResult result = Launcher.builder().ranks(2).mainClass(RankProgram.class.getName())
                    .args("fence-stall", go.toString()).jvmOptions(RmaRunProcess.SMALL_JVM).baseDirectory(base.path())
                    .output(line -> {
                        all.add(line);
                        lines.add(line);
                    }).build().run();
                lines.add("exit " + result.exitCode());
            } catch (final InterruptedException e) {
                lines.add("interrupted");
            }
        });
        long rank0 = -1;
        int ready = 0;
        while (ready < 2) {
            final String line = lines.poll(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS);
            assertNotNull(line, () -> "the ranks did not start: " + all);
            final Matcher matcher = READY.matcher(line);
            if (matcher.matches()) {
                ready++;
                if (matcher.group(1).equals("0")) {
                    rank0 = Long.parseLong(matcher.group(2));
                }
            }
        }
        // Rank 0 is in its second fence, waiting for rank 1, which waits for the go file.
        final Path mapping = windowMapping(rank0);
        try (FileChannel channel = FileChannel.open(mapping, StandardOpenOption.WRITE)) {
            channel.truncate(0);
        }

        String error = null;
        while (error == null) {
            final String line = lines.poll(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS);
            assertNotNull(line, () -> "rank 0 still waits in fence on the truncated window file: " + all);
            if (line.startsWith("[0] fence-error ")) {
                error = line;
            }
            assertTrue(!line.startsWith("exit "), () -> "the job ended without a fence error: " + all);
        }
        System.out.println("truncated window file: " + error);
        assertTrue(error.contains("ShmFormatException") && error.contains("/win-")
            && error.contains("was truncated while the job used it"), error);
        runner.join(TimeUnit.SECONDS.toMillis(RmaRunProcess.HANG_BOUND_SECONDS));
        assertTrue(all.toString().contains("[0] fence-error"), all::toString);
        assertTrue(lines.contains("exit " + RankProgram.FENCE_ERROR_STATUS), () -> lines + " " + all);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    /**
     * @return the {@code /proc/<pid>/map_files} entry of the window file mapped by process {@code pid}.
     */
    private Path windowMapping(final long pid) throws IOException {
        for (final String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "maps"))) {
            if (line.contains(base.path() + "/") && line.contains("/win-")) {
                final String[] range = line.substring(0, line.indexOf(' ')).split("-");
                final String name = Long.toHexString(Long.parseUnsignedLong(range[0], 16)) + "-"
                    + Long.toHexString(Long.parseUnsignedLong(range[1], 16));
                return Path.of("/proc", Long.toString(pid), "map_files", name);
            }
        }
        throw new AssertionError("no window file mapped by process " + pid);
    }
}
