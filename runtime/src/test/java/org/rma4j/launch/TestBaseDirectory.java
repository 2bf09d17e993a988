package org.rma4j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.rma4j.shm.JobDirectory;

/**
 * A private base directory for job directories under /dev/shm (or the temporary directory where there
 * is none), created per test and removed afterwards together with any rank the test left running.
 */
final class TestBaseDirectory implements AutoCloseable {
    private static final Path SHM = Path.of("/dev/shm");

    private final Path path;

    private TestBaseDirectory(final Path path) {
        this.path = path;
    }

    static TestBaseDirectory create() throws IOException {
        final Path parent = Files.isDirectory(SHM) && Files.isWritable(SHM)
            ? SHM : Path.of(System.getProperty("java.io.tmpdir"));
        return new TestBaseDirectory(Files.createTempDirectory(parent, "launch-test-"));
    }

    Path path() {
        return path;
    }

    /**
     * @return the entries of the base directory that look like job directories.
     */
    List<Path> jobDirectories() throws IOException {
        try (Stream<Path> entries = Files.list(path)) {
            return entries.filter(entry -> entry.getFileName().toString().startsWith(JobDirectory.NAME_PREFIX))
                .toList();
        }
    }

    /**
     * Asserts that the job's directory is gone and that no job directory is left in the base directory.
     */
    void assertNoJobDirectoryLeft(final JobResult result) throws IOException {
        assertFalse(Files.exists(result.jobDirectory()), "job directory " + result.jobDirectory() + " still exists");
        assertNoJobDirectoryLeft();
    }

    void assertNoJobDirectoryLeft() throws IOException {
        assertEquals(List.of(), jobDirectories(), "job directories left in " + path);
    }

    /**
     * Kills every process of a job under this base directory that still runs (only after a failed test)
     * and removes the base directory with all it holds.
     */
    @Override
    public void close() throws IOException {
        // All processes, not only descendants: a rank orphaned by a launcher that died is no descendant.
        ProcessHandle.allProcesses().filter(this::belongsHere).forEach(ProcessHandle::destroyForcibly);
        try (Stream<Path> entries = Files.walk(path)) {
            entries.sorted(Comparator.reverseOrder()).forEach(TestBaseDirectory::delete);
        }
    }

    /**
     * Whether a process (not this one) is a rank of a job under this base directory (its environment names a job
     * directory here) or a launcher told to use it (its arguments name it).
     */
    private boolean belongsHere(final ProcessHandle process) {
        final String base = path.toString();
        if (process.pid() == ProcessHandle.current().pid()) {
            return false;
        }
        if (process.info().arguments().map(args -> List.of(args).contains(base)).orElse(false)) {
            return true;
        }
        try {
            final String environment = Files.readString(Path.of("/proc", Long.toString(process.pid()), "environ"),
                StandardCharsets.ISO_8859_1);
            return environment.contains(JobEnvironment.JOB_DIR + "=" + base + "/");
        } catch (final IOException | UncheckedIOException e) {
            return false;
        }
    }

    private static void delete(final Path entry) {
        try {
            Files.deleteIfExists(entry);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
