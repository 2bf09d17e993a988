package org.rma4j.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A private tmpfs of a given size, mounted on a fresh directory for one test (the test JVM runs as root) and
 * removed by {@link #close()}, which a test calls in a {@code finally} block or {@code @AfterEach}.
 */
public final class Tmpfs implements AutoCloseable {
    private final Path mountPoint;

    private Tmpfs(final Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /**
     * Mounts a tmpfs of {@code sizeBytes} (a multiple of the page size) on a new directory.
     *
     * @throws IOException if it cannot be mounted (the directory is removed again).
     */
    public static Tmpfs mount(final long sizeBytes) throws IOException {
        final Path dir = Files.createTempDirectory("rma4j-tmpfs-");
        try {
            run("mount", "-t", "tmpfs", "-o", "size=" + sizeBytes + ",mode=0700", "tmpfs", dir.toString());
        } catch (final IOException | RuntimeException e) {
            Files.deleteIfExists(dir);
            throw e;
        }
        return new Tmpfs(dir);
    }

    public Path path() {
        return mountPoint;
    }

    /**
     * Unmounts the file system (detaching it lazily if a mapping still holds it) and removes the directory.
     */
    @Override
    public void close() throws IOException {
        try {
            run("umount", mountPoint.toString());
        } catch (final IOException e) {
            run("umount", "-l", mountPoint.toString());
        }
        Files.deleteIfExists(mountPoint);
    }

    private static void run(final String... command) throws IOException {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (process.waitFor() != 0) {
                throw new IOException(String.join(" ", List.of(command)) + " failed with status " + process.exitValue()
                    + ": " + output.strip());
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(String.join(" ", List.of(command)) + " interrupted", e);
        }
    }
}
