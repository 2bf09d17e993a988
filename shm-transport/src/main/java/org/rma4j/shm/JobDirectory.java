package org.rma4j.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
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
 *
 * <p>Deletion follows no symbolic link: the base directory is opened once, the job directory is opened
 * relative to it by name without following a link ({@code openat(O_NOFOLLOW)}), and its owner and its
 * identity (device and inode, recorded when this object was made) are checked on that handle before any
 * entry is unlinked relative to it. A job directory that was renamed is found again by its identity; a
 * name that now holds something else (a symbolic link planted in its place) is left alone. The base
 * directory is checked too ({@link #checkBase}): one that users other than its owner may write must have
 * the sticky bit, else another user could replace a job directory in it.
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
    /** S_IWGRP | S_IWOTH. */
    private static final int MODE_WRITABLE_BY_OTHERS = 0022;
    /** S_ISVTX: in a directory, only an entry's owner (or the directory's) may rename or remove it. */
    private static final int MODE_STICKY = 01000;
    private static final String SUPER_USER = "root";

    private final Path path;
    /** Device and inode of the directory (a {@link BasicFileAttributes#fileKey()}), or null if unknown. */
    private final Object fileKey;

    private JobDirectory(final Path path, final Object fileKey) {
        this.path = path;
        this.fileKey = fileKey;
    }

    /**
     * @return the base directory configured for this JVM.
     */
    public static Path defaultBase() {
        return Path.of(System.getProperty(BASE_DIR_PROP_NAME, BASE_DIR_DEFAULT));
    }

    /**
     * Creates a new job directory with a fresh random name under {@code base}.
     *
     * @throws UncheckedIOException if the base directory is missing or unsafe ({@link #checkBase}), or the
     *                              directory cannot be created.
     */
    public static JobDirectory create(final Path base) {
        return create(base, "");
    }

    /**
     * Creates a new job directory with a fresh random name under {@code base}, ending in {@code -tag} (e.g. the
     * host name, for a job that has a directory on each of several hosts that share a file system view).
     *
     * @param tag letters, digits, dots and dashes, or empty for none.
     * @throws IllegalArgumentException for another character in {@code tag}.
     * @throws UncheckedIOException     if the base directory is missing or unsafe ({@link #checkBase}), or the
     *                                  directory cannot be created.
     */
    public static JobDirectory create(final Path base, final String tag) {
        if (!tag.matches("[A-Za-z0-9.-]*")) {
            throw new IllegalArgumentException("job directory tag '" + tag + "' may hold only [A-Za-z0-9.-]");
        }
        checkBase(base);
        final byte[] nonce = new byte[16];
        while (true) {
            RANDOM.nextBytes(nonce);
            final Path dir = base.resolve(NAME_PREFIX + ProcessHandle.current().pid() + "-"
                + HexFormat.of().formatHex(nonce) + (tag.isEmpty() ? "" : "-" + tag));
            try {
                Files.createDirectory(dir,
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                final BasicFileAttributes attributes = Files.readAttributes(dir, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
                return new JobDirectory(dir, attributes.fileKey());
            } catch (final FileAlreadyExistsException e) {
                // a collision of 128 random bits: draw again
            } catch (final IOException e) {
                throw new UncheckedIOException("cannot create a job directory under " + base, e);
            }
        }
    }

    /**
     * Checks that job directories may safely live in {@code base}: it is a directory owned by this user
     * or by root, and if users other than its owner may write it, it has the sticky bit (as
     * {@code /dev/shm} and {@code /tmp} have), so that no other user can rename, remove or replace a job
     * directory in it.
     *
     * @throws UncheckedIOException naming the problem and the fix if it is not.
     */
    public static void checkBase(final Path base) {
        try {
            final PosixFileAttributes attributes = Files.readAttributes(base, PosixFileAttributes.class);
            if (!attributes.isDirectory()) {
                throw new IOException("base directory " + base + " is not a directory");
            }
            final String owner = attributes.owner().getName();
            final String user = System.getProperty("user.name");
            if (!owner.equals(user) && !owner.equals(SUPER_USER)) {
                throw new IOException("base directory " + base + " belongs to user " + owner + ", who could replace "
                    + "a job directory in it; use a directory of " + user + " or of root");
            }
            final int mode = (Integer)Files.getAttribute(base, "unix:mode");
            if ((mode & MODE_WRITABLE_BY_OTHERS) != 0 && (mode & MODE_STICKY) == 0) {
                throw new IOException("base directory " + base + " has permissions "
                    + PosixFilePermissions.toString(attributes.permissions()) + " without the sticky bit: another "
                    + "user could replace a job directory in it; use a directory only its owner may write, or "
                    + "set the sticky bit (chmod +t " + base + ")");
            }
        } catch (final NoSuchFileException e) {
            throw new UncheckedIOException("base directory " + base + " does not exist", e);
        } catch (final IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    /**
     * Refers to an existing job directory.
     *
     * @throws UncheckedIOException if {@code dir} is not a directory (symbolic links are not followed).
     */
    public static JobDirectory open(final Path dir) {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new UncheckedIOException(
                new IOException("job directory " + dir + " does not exist or is not a directory"));
        }
        try {
            final PosixFileAttributes attributes = Files.readAttributes(dir, PosixFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS);
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
            return new JobDirectory(dir, attributes.fileKey());
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Removes the job directories under {@code base} whose owner process is gone: the pid in the
     * name does not run, or runs but started after the directory was last changed (a reused pid).
     * Directories of other users, of live owners, and entries it cannot read are left alone.
     *
     * @return the directories removed.
     * @throws UncheckedIOException if the base directory is unsafe ({@link #checkBase}).
     */
    public static List<Path> sweepStale(final Path base) {
        final List<Path> removed = new ArrayList<>();
        if (!Files.exists(base)) {
            return removed;
        }
        checkBase(base);
        final String user = System.getProperty("user.name");
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(base, NAME_PREFIX + "*")) {
            for (final Path entry : entries) {
                try {
                    final PosixFileAttributes attributes = Files.readAttributes(entry, PosixFileAttributes.class,
                        LinkOption.NOFOLLOW_LINKS);
                    if (attributes.isDirectory() && attributes.owner().getName().equals(user)
                        && isStale(entry.getFileName().toString(), attributes.lastModifiedTime().toMillis())
                        && new JobDirectory(entry, attributes.fileKey()).delete()) {
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
     * Removes the directory and every file in it without following a symbolic link: the directory is
     * opened relative to its base by name with {@code O_NOFOLLOW}, its owner and its device and inode are
     * checked on that handle, and its entries are unlinked relative to it (a symbolic link in it is
     * removed, never its target). If its name no longer holds it (renamed, or replaced by a link), the
     * base directory is searched for the entry with its device and inode. Never fails: problems are
     * returned, not thrown.
     *
     * @return true if the directory is gone afterwards (also when it was gone before).
     */
    public boolean delete() {
        final Path base = path.toAbsolutePath().getParent();
        final String name = path.getFileName().toString();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(base)) {
            if (!(stream instanceof SecureDirectoryStream<Path> baseStream)) {
                return false; // no openat on this platform: refuse rather than follow links
            }
            final String actualName = locate(baseStream, name);
            if (actualName == null) {
                // gone already, or moved out of the base; a link or file at its name is not ours to remove
                return !Files.exists(path, LinkOption.NOFOLLOW_LINKS);
            }
            final Path entry = Path.of(actualName);
            try (SecureDirectoryStream<Path> job = baseStream.newDirectoryStream(entry, LinkOption.NOFOLLOW_LINKS)) {
                final PosixFileAttributes attributes = job.getFileAttributeView(PosixFileAttributeView.class)
                    .readAttributes();
                if (!sameFile(attributes.fileKey())
                    || !attributes.owner().getName().equals(System.getProperty("user.name"))) {
                    return false;
                }
                deleteEntries(job);
            }
            // NOTE: checked again right before the removal; the directory is empty by now, so a name swapped in
            // between could only make this remove another empty directory, never files.
            if (isOurs(baseStream, actualName)) {
                baseStream.deleteDirectory(entry);
            }
            return locate(baseStream, name) == null;
        } catch (final NoSuchFileException e) {
            return !Files.exists(path, LinkOption.NOFOLLOW_LINKS);
        } catch (final IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * @return the name under which the base directory holds this directory (its own name first), or null.
     */
    private String locate(final SecureDirectoryStream<Path> base, final String name) throws IOException {
        if (isOurs(base, name)) {
            return name;
        }
        if (fileKey == null) {
            return null;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(path.toAbsolutePath().getParent())) {
            for (final Path entry : entries) {
                final String candidate = entry.getFileName().toString();
                if (!candidate.equals(name) && isOurs(base, candidate)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    private boolean isOurs(final SecureDirectoryStream<Path> base, final String name) {
        try {
            final BasicFileAttributes attributes = base
                .getFileAttributeView(Path.of(name), BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .readAttributes();
            return attributes.isDirectory() && sameFile(attributes.fileKey());
        } catch (final IOException e) {
            return false;
        }
    }

    private boolean sameFile(final Object key) {
        return fileKey == null || Objects.equals(fileKey, key);
    }

    private static void deleteEntries(final SecureDirectoryStream<Path> job) {
        final List<Path> names = new ArrayList<>();
        for (final Path entry : job) {
            names.add(entry.getFileName());
        }
        for (final Path name : names) {
            try {
                job.deleteFile(name);
            } catch (final IOException notAFile) {
                try {
                    job.deleteDirectory(name);
                } catch (final IOException ignored) {
                    // a non-empty directory a job never makes: the directory stays, and delete() says so
                }
            }
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
