package org.rma4j.shm;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.ShmTestDirectory;

@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JobDirectoryTest {
    private ShmTestDirectory shm;
    private Path base;

    @BeforeEach
    void setUp() throws Exception {
        shm = new ShmTestDirectory();
        base = shm.path();
    }

    @AfterEach
    void tearDown() throws Exception {
        shm.close();
    }

    @Test
    void shouldCreateOwnerOnlyDirectoryNamedForItsOwnerWithRandomHex() throws Exception {
        final JobDirectory job = JobDirectory.create(base);

        final Path dir = job.path();
        assertEquals(base, dir.getParent());
        assertTrue(Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS));
        assertTrue(dir.getFileName().toString().matches("rma4j-" + ProcessHandle.current().pid() + "-[0-9a-f]{32}"),
            dir.getFileName().toString());
        assertEquals(PosixFilePermissions.fromString("rwx------"),
            Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS));
        assertEquals(dir.toString(), job.toString());
    }

    @Test
    void shouldEndTheNameWithItsTagAndStillBeJudgedByItsOwnerPid() {
        final JobDirectory job = JobDirectory.create(base, "node-1.example");

        final String name = job.path().getFileName().toString();
        assertTrue(name.matches("rma4j-" + ProcessHandle.current().pid() + "-[0-9a-f]{32}-node-1\\.example"), name);
        assertFalse(JobDirectory.isStale(name, System.currentTimeMillis()), "its owner runs");
        assertThrows(IllegalArgumentException.class, () -> JobDirectory.create(base, "../up"));
    }

    @Test
    void shouldCreateADifferentDirectoryEachTime() {
        final Set<Path> dirs = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            dirs.add(JobDirectory.create(base).path());
        }

        assertEquals(20, dirs.size());
        for (final Path dir : dirs) {
            assertTrue(Files.isDirectory(dir));
        }
    }

    @Test
    void shouldFailToCreateUnderAMissingBaseNamingIt() {
        final Path missing = base.resolve("missing");

        final UncheckedIOException thrown = assertThrows(UncheckedIOException.class,
            () -> JobDirectory.create(missing));

        assertTrue(thrown.getMessage().contains(missing.toString()), thrown.getMessage());
    }

    @Test
    void shouldResolvePlainFileNamesInsideTheDirectory() {
        final JobDirectory job = JobDirectory.create(base);

        assertEquals(job.path().resolve("win-0"), job.file("win-0"));
        assertEquals(job.path().resolve("control"), job.controlFile());
        assertEquals(job.path(), job.file("win-0").getParent());
    }

    @Test
    void shouldRejectNamesThatAreNotPlainFileNames() {
        final JobDirectory job = JobDirectory.create(base);

        for (final String name : new String[] {"../x", "a/b", "/etc/passwd", "", ".", "..", ".hidden"}) {
            final IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> job.file(name),
                name);
            assertTrue(thrown.getMessage().contains("'" + name + "'"), thrown.getMessage());
        }
    }

    @Test
    void shouldDeleteTheDirectoryWithTheFilesInIt() throws Exception {
        final JobDirectory job = JobDirectory.create(base);
        try (ControlFile control = ControlFile.create(job.controlFile(), 2, 0);
            MappedFile window = MappedFile.create(job.file("win-0"), 8192)) {
            control.join(0);
            Words.putInt(window.segment(), 0, 1);
        }

        assertTrue(job.delete());

        assertFalse(Files.exists(job.path(), LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void shouldDeleteAFileThatIsStillMapped() throws Exception {
        final JobDirectory job = JobDirectory.create(base);
        final MappedFile window = shm.track(MappedFile.create(job.file("win-0"), 4096));

        assertTrue(job.delete());

        assertFalse(Files.exists(job.path(), LinkOption.NOFOLLOW_LINKS));
        Words.putIntVolatile(window.segment(), 0, 5);
        assertEquals(5, Words.getIntVolatile(window.segment(), 0), "the mapping outlives the directory");
    }

    @Test
    void shouldDeleteASymlinkInTheDirectoryButNotItsTarget() throws Exception {
        final JobDirectory job = JobDirectory.create(base);
        final Path outside = base.resolve("outside");
        final byte[] content = "keep me".getBytes(StandardCharsets.US_ASCII);
        Files.write(outside, content);
        Files.createSymbolicLink(job.file("link"), outside);

        assertTrue(job.delete());

        assertFalse(Files.exists(job.path(), LinkOption.NOFOLLOW_LINKS));
        assertArrayEquals(content, Files.readAllBytes(outside));
    }

    @Test
    void shouldReportSuccessWhenDeletingTwice() {
        final JobDirectory job = JobDirectory.create(base);

        assertTrue(job.delete());
        assertTrue(job.delete());
    }

    @Test
    void shouldReportFailureInsteadOfThrowingWhenTheDirectoryCannotBeRemoved() throws Exception {
        final JobDirectory job = JobDirectory.create(base);
        final Path nested = Files.createDirectory(job.path().resolve("nested"));
        Files.write(nested.resolve("file"), new byte[1]);

        assertFalse(job.delete());

        assertTrue(Files.isDirectory(job.path()));
    }

    @Test
    void shouldOpenAnExistingDirectory() {
        final JobDirectory created = JobDirectory.create(base);

        final JobDirectory opened = JobDirectory.open(created.path());

        assertEquals(created.path(), opened.path());
        assertEquals(created.controlFile(), opened.controlFile());
    }

    @Test
    void shouldRefuseToOpenAMissingDirectory() {
        final Path missing = base.resolve("rma4j-00000000000000000000000000000000");

        final UncheckedIOException thrown = assertThrows(UncheckedIOException.class, () -> JobDirectory.open(missing));

        assertTrue(thrown.getMessage().contains(missing.toString()), thrown.getMessage());
    }

    @Test
    void shouldRefuseToOpenARegularFile() throws Exception {
        final Path file = Files.write(base.resolve("file"), new byte[1]);

        assertThrows(UncheckedIOException.class, () -> JobDirectory.open(file));
    }

    @Test
    void shouldRefuseToOpenASymlinkToADirectory() throws Exception {
        final JobDirectory real = JobDirectory.create(base);
        final Path link = Files.createSymbolicLink(base.resolve("link"), real.path());

        assertThrows(UncheckedIOException.class, () -> JobDirectory.open(link));
    }

    @Test
    void shouldTakeTheDefaultBaseFromTheSystemProperty() {
        final String saved = System.getProperty(JobDirectory.BASE_DIR_PROP_NAME);
        try {
            System.clearProperty(JobDirectory.BASE_DIR_PROP_NAME);
            assertEquals(Path.of(JobDirectory.BASE_DIR_DEFAULT), JobDirectory.defaultBase());

            System.setProperty(JobDirectory.BASE_DIR_PROP_NAME, base.toString());
            assertEquals(base, JobDirectory.defaultBase());
        } finally {
            if (saved == null) {
                System.clearProperty(JobDirectory.BASE_DIR_PROP_NAME);
            } else {
                System.setProperty(JobDirectory.BASE_DIR_PROP_NAME, saved);
            }
        }
    }

    @Test
    void shouldSweepDirectoriesOfDeadOwnersOnly() throws Exception {
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        final Path stale = Files.createDirectory(base.resolve("rma4j-" + gone.pid() + "-" + "0".repeat(32)));
        Files.createFile(stale.resolve("mem-0-0"));
        final Path live = JobDirectory.create(base).path();
        final Path foreign = Files.createDirectory(base.resolve("unrelated"));
        final Path unnamed = Files.createDirectory(base.resolve("rma4j-" + "f".repeat(32)));

        final List<Path> removed = JobDirectory.sweepStale(base);

        assertEquals(List.of(stale), removed);
        assertFalse(Files.exists(stale));
        assertTrue(Files.isDirectory(live));
        assertTrue(Files.isDirectory(foreign));
        assertTrue(Files.isDirectory(unnamed));
    }

    @Test
    void shouldJudgeAPidStartedAfterTheDirectoryChangedAsReused() {
        final long self = ProcessHandle.current().pid();
        final long changedNow = System.currentTimeMillis();
        assertFalse(JobDirectory.isStale("rma4j-" + self + "-x", changedNow));
        assertTrue(JobDirectory.isStale("rma4j-" + self + "-x", 0));
        assertFalse(JobDirectory.isStale("rma4j-notapid-x", 0));
    }

    @Test
    void shouldRefuseToOpenADirectoryOthersMayEnter() throws Exception {
        final Path open = Files.createDirectory(base.resolve("rma4j-1-" + "a".repeat(32)),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-x---"));

        final UncheckedIOException thrown = assertThrows(UncheckedIOException.class, () -> JobDirectory.open(open));
        assertTrue(thrown.getMessage().contains("rwxr-x---"), thrown.getMessage());
    }

    @Test
    void shouldRefuseABaseThatOthersMayWriteWithoutTheStickyBit() throws Exception {
        for (final String mode : List.of("rwxrwxrwx", "rwxrwx---", "rwx----w-")) {
            final Path open = Files.createDirectory(base.resolve("open-" + mode.replace('-', '_')));
            Files.setPosixFilePermissions(open, PosixFilePermissions.fromString(mode));

            final UncheckedIOException thrown = assertThrows(UncheckedIOException.class,
                () -> JobDirectory.create(open));

            assertTrue(thrown.getMessage().contains("has permissions " + mode + " without the sticky bit"),
                thrown.getMessage());
            assertThrows(UncheckedIOException.class, () -> JobDirectory.sweepStale(open));
            try (var entries = Files.list(open)) {
                assertEquals(0, entries.count(), "nothing created in " + open);
            }
        }
    }

    @Test
    void shouldAcceptABaseOthersMayWriteWithTheStickyBit() throws Exception {
        final Path sticky = Files.createDirectory(base.resolve("sticky"));
        Files.setAttribute(sticky, "unix:mode", 01777);

        final JobDirectory job = JobDirectory.create(sticky);

        assertEquals(sticky, job.path().getParent());
        assertTrue(job.delete());
    }

    @Test
    void shouldNotDeleteThroughALinkThatReplacedTheJobDirectory() throws Exception {
        final JobDirectory job = JobDirectory.create(base);
        Files.write(job.file("win-0"), new byte[8]);
        final Path victim = Files.createDirectory(base.resolve("victim"));
        final byte[] content = "keep me".getBytes(StandardCharsets.US_ASCII);
        Files.write(victim.resolve("precious"), content);
        final Path moved = base.resolve("moved-away");
        Files.move(job.path(), moved);
        Files.createSymbolicLink(job.path(), victim);

        assertTrue(job.delete(), "the moved job directory is found by its inode and removed");

        assertArrayEquals(content, Files.readAllBytes(victim.resolve("precious")));
        assertFalse(Files.exists(moved, LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.isSymbolicLink(job.path()), "the planted link is not the job's to remove");
    }

    @Test
    void shouldReportFailureWhenALinkReplacedAJobDirectoryMovedOutOfTheBase() throws Exception {
        final JobDirectory job = JobDirectory.create(base);
        final Path victim = Files.createDirectory(base.resolve("victim"));
        Files.write(victim.resolve("precious"), new byte[1]);
        final Path elsewhere = Files.createDirectory(base.resolve("elsewhere"));
        Files.move(job.path(), elsewhere.resolve("job"));
        Files.createSymbolicLink(job.path(), victim);

        assertFalse(job.delete());

        assertTrue(Files.exists(victim.resolve("precious")));
    }

    @Test
    void shouldNotDeleteADirectoryThatReplacedTheJobDirectory() throws Exception {
        final JobDirectory job = JobDirectory.create(base);
        Files.move(job.path(), base.resolve("moved-away"));
        final Path impostor = Files.createDirectory(job.path());
        Files.write(impostor.resolve("precious"), new byte[1]);

        assertTrue(job.delete());

        assertTrue(Files.exists(impostor.resolve("precious")), "a directory with another inode is left alone");
        assertFalse(Files.exists(base.resolve("moved-away")));
    }
}
