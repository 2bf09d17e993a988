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
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * The directory that holds one job's shared files: its control file and one file per window.
 *
 * <p>Job directories are created under a base directory ({@link #BASE_DIR_DEFAULT}, or the
 * {@link #BASE_DIR_PROP_NAME} system property) with an unguessable name
 * ({@code rma4j-<owner pid>-<128 random bits in hex>}) and mode 0700; the files in it are created
 * exclusively with mode 0600. {@link #open} refuses a directory that another user owns or that
 * others may enter. The owner pid in the name lets {@link #sweepStale} remove the directories of
 * jobs whose launcher is gone (killed with SIGKILL, say) without touching a live job's.
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
            final Path dir = base.resolve(NAME_PREFIX + ProcessHandle.current().pid() + "-"
                + HexFormat.of().formatHex(nonce));
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
        try {
            final PosixFileAttributes attributes =
                Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            final String user = System.getProperty("user.name");
            if (!attributes.owner().getName().equals(user)) {
                throw new IOException("job directory " + dir + " belongs to user " + attributes.owner().getName()
                    + ", not to " + user + ": a job of another user cannot be joined");
            }
            final Set<PosixFilePermission> permissions = attributes.permissions();
            for (final PosixFilePermission permission : permissions) {
                if (permission.name().startsWith("GROUP") || permission.name().startsWith("OTHERS")) {
                    throw new IOException("job directory " + dir + " has permissions "
                        + PosixFilePermissions.toString(permissions) + "; a job directory must be rwx------");
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return new JobDirectory(dir);
    }

    /**
     * Removes the job directories under {@code base} whose owner process is gone: the pid in the
     * name does not run, or runs but started after the directory was last changed (a reused pid).
     * Directories of other users, of live owners, and entries it cannot read are left alone.
     *
     * @return the directories removed.
     */
    public static List<Path> sweepStale(final Path base) {
        final List<Path> removed = new ArrayList<>();
        final String user = System.getProperty("user.name");
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(base, NAME_PREFIX + "*")) {
            for (final Path entry : entries) {
                try {
                    final PosixFileAttributes attributes =
                        Files.readAttributes(entry, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    if (attributes.isDirectory() && attributes.owner().getName().equals(user)
                        && isStale(entry.getFileName().toString(), attributes.lastModifiedTime().toMillis())
                        && deleteTree(entry)) {
                        removed.add(entry);
                    }
                } catch (final IOException | RuntimeException ignored) {
                    // unreadable or vanished meanwhile: not ours to judge
                }
            }
        } catch (final IOException ignored) {
            // no base directory: nothing to sweep
        }
        return removed;
    }

    /**
     * Whether the owner named in a job directory name is gone. Names without an owner pid are not
     * judged (false).
     */
    static boolean isStale(final String name, final long lastModifiedMillis) {
        final String rest = name.substring(NAME_PREFIX.length());
        final int dash = rest.indexOf('-');
        if (dash <= 0) {
            return false;
        }
        final long pid;
        try {
            pid = Long.parseLong(rest.substring(0, dash));
        } catch (final NumberFormatException e) {
            return false;
        }
        final ProcessHandle owner = ProcessHandle.of(pid).orElse(null);
        if (owner == null || !owner.isAlive()) {
            return true;
        }
        final long started = ControlFile.startMillis(owner);
        // A process that started after the directory last changed cannot be its owner: the pid was reused.
        return started != 0 && started > lastModifiedMillis + 1000;
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
