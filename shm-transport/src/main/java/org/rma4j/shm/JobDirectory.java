package org.rma4j.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The directory that holds one job's shared files: its control file and one file per window.
 *
 * <p>Job directories are created under a base directory ({@link #BASE_DIR_DEFAULT}, or the
 * {@link #BASE_DIR_PROP_NAME} system property) with an unguessable name ({@code rma4j-} and 128
 * random bits in hex) and mode 0700; the files in it are created exclusively with mode 0600.
 */
public final class JobDirectory {
    /** System property naming the base directory of job directories. */
    public static final String BASE_DIR_PROP_NAME = "rma4j.shm.dir";
    /** Default base directory: the machine's shared-memory file system. */
    public static final String BASE_DIR_DEFAULT = "/dev/shm";
    /** Prefix of every job directory's name. */
    public static final String NAME_PREFIX = "rma4j-";
    /** Name of the control file in a job directory. */
    public static final String CONTROL_FILE_NAME = "control";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path path;

    private JobDirectory(final Path path) {
        this.path = path;
    }

    /**
     * @return the base directory configured for this JVM.
     */
    public static Path defaultBase() {
        return Path.of(System.getProperty(BASE_DIR_PROP_NAME, BASE_DIR_DEFAULT));
    }

    /**
     * Creates a new job directory with a fresh random name under {@code base}.
     */
    public static JobDirectory create(final Path base) {
        final byte[] nonce = new byte[16];
        while (true) {
            RANDOM.nextBytes(nonce);
            final Path dir = base.resolve(NAME_PREFIX + HexFormat.of().formatHex(nonce));
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                return new JobDirectory(dir);
            } catch (final FileAlreadyExistsException e) {
                // a collision of 128 random bits: draw again
            } catch (final IOException e) {
                throw new UncheckedIOException("cannot create a job directory under " + base, e);
            }
        }
    }

    /**
     * Refers to an existing job directory.
     *
     * @throws UncheckedIOException if {@code dir} is not a directory (symbolic links are not followed).
     */
    public static JobDirectory open(final Path dir) {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new UncheckedIOException(new IOException("job directory " + dir + " does not exist or is not a directory"));
        }
        return new JobDirectory(dir);
    }

    public Path path() {
        return path;
    }

    public Path controlFile() {
        return path.resolve(CONTROL_FILE_NAME);
    }

    /**
     * @param name a plain file name (no separator).
     * @return the path of a file of this job.
     */
    public Path file(final String name) {
        if (name.isEmpty() || name.contains("/") || name.startsWith(".")) {
            throw new IllegalArgumentException("'" + name + "' is not a plain file name");
        }
        return path.resolve(name);
    }

    /**
     * Removes the directory and every file in it. Never fails: problems are returned, not thrown.
     *
     * @return true if the directory is gone afterwards.
     */
    public boolean delete() {
        return deleteTree(path);
    }

    static boolean deleteTree(final Path dir) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (final Path entry : entries) {
                try {
                    Files.deleteIfExists(entry);
                } catch (final IOException ignored) {
                    // keep deleting the others; the final delete below tells
                }
            }
        } catch (final IOException ignored) {
            // gone already, or unreadable: the final delete below tells
        }
        try {
            Files.deleteIfExists(dir);
        } catch (final IOException ignored) {
            // reported through the return value
        }
        return !Files.exists(dir, LinkOption.NOFOLLOW_LINKS);
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
