package org.rma4j.reliability;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.launch.JobEnvironment;

/**
 * Rank program of {@link SecurityTest}: looks at its live job's directory from inside the job, before
 * joining (the launcher's control file), after allocMem (the rank's shared memory files) and after window
 * creation, and checks that the directory is {@code rwx------}, every entry a regular file (no link)
 * {@code rw-------}, and everything owned by this user.
 *
 * <p>Prints {@code ENTRY <stage> <name> <permissions>} for each entry seen, {@code BAD <what>} for each
 * violation, and exits with 6 if there was one. Mode {@code join} only joins the job ({@link Rma#init}).
 */
public final class PermissionsMain {
    private PermissionsMain() {
    }

    public static void main(final String[] args) throws IOException {
        if (args.length > 0 && args[0].equals("join")) {
            Rma.init().close();
            System.out.println("JOINED");
            return;
        }
        final Path dir = Path.of(System.getenv(JobEnvironment.JOB_DIR));
        final List<String> bad = new ArrayList<>();
        check("before-init", dir, bad);
        final RmaJob job = Rma.init();
        job.allocMem(100);
        final Window window = job.allocateShared(4096, 8);
        job.barrier();
        check("live", dir, bad);
        job.barrier();
        window.free();
        job.close();
        bad.forEach(line -> System.out.println("BAD " + line));
        System.exit(bad.isEmpty() ? 0 : 6);
    }

    private static void check(final String stage, final Path dir, final List<String> bad) throws IOException {
        final String user = System.getProperty("user.name");
        final PosixFileAttributes dirAttributes = Files.readAttributes(dir, PosixFileAttributes.class,
            LinkOption.NOFOLLOW_LINKS);
        final String dirMode = PosixFilePermissions.toString(dirAttributes.permissions());
        System.out.println("DIR " + stage + " " + dir.getFileName() + " " + dirMode);
        if (!dirAttributes.isDirectory() || !dirMode.equals("rwx------")
            || !dirAttributes.owner().getName().equals(user)) {
            bad.add(stage + " directory " + dir + " " + dirMode + " owner " + dirAttributes.owner().getName());
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (final Path entry : entries) {
                final PosixFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(entry, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (final NoSuchFileException e) {
                    continue; // unlinked meanwhile by another rank
                }
                final String mode = PosixFilePermissions.toString(attributes.permissions());
                System.out.println("ENTRY " + stage + " " + entry.getFileName() + " " + mode);
                if (!attributes.isRegularFile() || !mode.equals("rw-------")
                    || !attributes.owner().getName().equals(user)) {
                    bad.add(stage + " entry " + entry + " " + mode + " owner " + attributes.owner().getName()
                        + (attributes.isSymbolicLink() ? " (a symbolic link)" : ""));
                }
            }
        }
    }
}
