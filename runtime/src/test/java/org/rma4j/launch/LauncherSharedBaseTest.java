package org.rma4j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.shm.JobDirectory;
import org.rma4j.test.ShmTestDirectory;

/**
 * A base directory that a real second user can write, and that user trying to make the launcher (root)
 * delete files that are not the job's: an unsafe base is refused, a sticky base keeps the job directory
 * out of the other user's reach, and a job directory swapped for a symbolic link is removed where it
 * went, never through the link.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LauncherSharedBaseTest {
    private static final String PRECIOUS = "precious data of another owner";

    private ShmTestDirectory base;
    private SecondUser other;
    private Path outside;

    @BeforeEach
    void setUp() throws Exception {
        base = new ShmTestDirectory("launch-test-");
        outside = Files.createTempDirectory(Path.of("/dev/shm"), "launch-test-outside-");
        other = SecondUser.create();
    }

    @AfterEach
    void tearDown() throws Exception {
        try {
            base.close();
            try (var entries = Files.walk(outside)) {
                entries.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        } finally {
            other.close();
        }
    }

    @Test
    void shouldRefuseABaseThatAnotherUserMayWriteWithoutTheStickyBit() throws Exception {
        Files.setAttribute(base.path(), "unix:mode", 0777);
        assertEquals(0, other.run("touch", base.path().resolve("planted").toString()).status(),
            "the other user can write the base: the threat is real");

        final Process rmarun = new ProcessBuilder(RmaRunProcess.command(base.path(),
            List.of("-n", "1", "-cp", System.getProperty("java.class.path"), RankProgram.class.getName(), "echo")))
            .start();
        try {
            final CompletableFuture<String> stdout = readAll(rmarun.getInputStream());
            final String stderr = new String(rmarun.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(rmarun.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS));
            assertEquals(RmaRun.EXIT_CANNOT_START, rmarun.exitValue(), stderr);
            assertTrue(stderr.contains("has permissions rwxrwxrwx without the sticky bit"), stderr);
            assertTrue(stderr.contains("chmod +t " + base.path()), stderr);
            assertEquals("", stdout.get(), "no rank ran");
            base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
        } finally {
            RmaRunProcess.destroy(rmarun);
        }
    }

    @Test
    void shouldKeepAJobDirectoryInAStickyBaseOutOfAnotherUsersReach() throws Exception {
        Files.setAttribute(base.path(), "unix:mode", 01777);
        final Path go = outside.resolve("go");
        final Process rmarun = startAwaiting(go);
        try {
            final Path job = awaitReadyAndFindJobDirectory(rmarun);

            final SecondUser.Result moved = other.run("mv", job.toString(), base.path().resolve("moved").toString());
            final SecondUser.Result removed = other.run("rm", "-rf", job.toString());

            assertNotEquals(0, moved.status(), moved.output());
            assertNotEquals(0, removed.status(), removed.output());
            assertTrue(Files.isDirectory(job, LinkOption.NOFOLLOW_LINKS));
            Files.createFile(go);
            assertTrue(rmarun.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS));
            assertEquals(0, rmarun.exitValue());
            base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
        } finally {
            RmaRunProcess.destroy(rmarun);
        }
    }

    @Test
    void shouldNotDeleteThroughALinkAnotherUserPutInPlaceOfTheJobDirectory() throws Exception {
        final Path victim = Files.createDirectory(outside.resolve("victim"));
        Files.writeString(victim.resolve("file"), PRECIOUS);
        Files.setAttribute(outside, "unix:mode", 0755);
        final Path go = outside.resolve("go");
        Files.setAttribute(base.path(), "unix:mode", 0755);
        final Process rmarun = startAwaiting(go);
        try {
            final Path job = awaitReadyAndFindJobDirectory(rmarun);
            // The base becomes writable by everyone while the job runs (checked at launch only): the other
            // user moves the job directory away and puts a link to the victim in its place.
            Files.setAttribute(base.path(), "unix:mode", 0777);
            final Path moved = base.path().resolve("moved-by-" + other.name());
            final SecondUser.Result swapped = other.run("sh", "-c", "mv \"$1\" \"$2\" && ln -s \"$3\" \"$1\"", "swap",
                job.toString(), moved.toString(), victim.toString());
            assertEquals(0, swapped.status(), swapped.output());
            assertTrue(Files.isSymbolicLink(job));

            Files.createFile(go);
            assertTrue(rmarun.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS));

            assertEquals(PRECIOUS, Files.readString(victim.resolve("file")), "the link's target is untouched");
            assertTrue(!Files.exists(moved, LinkOption.NOFOLLOW_LINKS), "the moved job directory was removed");
            assertTrue(Files.isSymbolicLink(job), "the other user's link is theirs");
            Files.delete(job);
            base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
        } finally {
            RmaRunProcess.destroy(rmarun);
        }
    }

    private Process startAwaiting(final Path go) throws IOException {
        return new ProcessBuilder(RmaRunProcess.command(base.path(), List.of("-n", "2", "-cp",
            System.getProperty("java.class.path"), RankProgram.class.getName(), "await-file", go.toString())))
            .redirectErrorStream(true).start();
    }

    private Path awaitReadyAndFindJobDirectory(final Process rmarun) throws Exception {
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(rmarun.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    lines.add(line);
                }
            } catch (final IOException ignored) {
                // rmarun is gone
            }
        });
        int ready = 0;
        final StringBuilder seen = new StringBuilder();
        while (ready < 2) {
            final String line = lines.poll(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS);
            assertNotNull(line, () -> "the ranks did not start: " + seen);
            seen.append(line).append('\n');
            if (line.matches("\\[\\d] ready \\d+")) {
                ready++;
            }
        }
        final List<Path> jobs = base.entries(JobDirectory.NAME_PREFIX);
        assertEquals(1, jobs.size(), jobs::toString);
        return jobs.getFirst();
    }

    private static CompletableFuture<String> readAll(final java.io.InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (final IOException e) {
                return "(unreadable: " + e + ")";
            }
        });
    }
}
