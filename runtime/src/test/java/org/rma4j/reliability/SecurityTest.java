package org.rma4j.reliability;

import org.rma4j.WaitOptions;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.ErrorClass;
import org.rma4j.Rma;
import org.rma4j.RmaException;
import org.rma4j.Window;
import org.rma4j.launch.JobEnvironment;
import org.rma4j.launch.Launcher;
import org.rma4j.launch.SecondUser;
import org.rma4j.shm.ControlFile;
import org.rma4j.shm.ControlLayout;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.ShmFormatException;
import org.rma4j.test.ShmTestDirectory;

/**
 * Access to a job's files: private directory and files, no symbolic link followed, corrupted or truncated
 * files rejected with an error naming the problem, foreign or open directories refused, unguessable names.
 */
@Tag("reliability")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SecurityTest {
    private static final String VICTIM_TEXT = "precious data that no rma4j call may overwrite";
    /** "RELTESTW": the magic of the window-like files of the corruption table. */
    private static final long WINDOW_MAGIC = 0x52454C5445535457L;
    private static final int WINDOW_VERSION = 3;
    private static final Pattern JOB_NAME = Pattern.compile("rma4j-(\\d+)-([0-9a-f]{32})");

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory("rma4j-reliability-");

    @Test
    void shouldKeepALiveJobsDirectoryAndFilesPrivateToItsOwner() throws Exception {
        final Jobs.Outcome outcome = Jobs.run(base.path(), 2, PermissionsMain.class);
        assertEquals(0, outcome.result().exitCode(), outcome::describe);
        final Matcher name = JOB_NAME.matcher(outcome.result().jobDirectory().getFileName().toString());
        assertTrue(name.matches(), outcome::describe);
        assertEquals(ProcessHandle.current().pid(), Long.parseLong(name.group(1)), outcome::describe);
        for (int rank = 0; rank < 2; rank++) {
            assertEquals(List.of("ENTRY before-init control rw-------"), outcome.lines(rank, "ENTRY before-init"),
                outcome::describe);
            assertTrue(outcome.lines(rank, "ENTRY live").contains("ENTRY live mem-" + rank + "-0 rw-------"),
                outcome::describe);
            assertEquals(2, outcome.lines(rank, "DIR ").stream().filter(line -> line.endsWith(" rwx------")).count(),
                outcome::describe);
            assertEquals(List.of(), outcome.lines(rank, "BAD"), outcome::describe);
        }
        System.out.println("permissions seen inside the job: " + outcome.lines(0, "ENTRY"));
    }

    @Test
    void shouldRefuseJobDirectoriesThatGroupOrOthersMayUse() throws IOException {
        for (final String mode : List.of("rwxr-x---", "rwx--x---", "rwx-w----", "rwx---r--", "rwx-----x", "rwxrwxrwx",
            "rwx------")) {
            final Path dir = base.path().resolve("dir-" + mode.replace('-', '_'));
            Files.createDirectory(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(mode));
            if (mode.equals("rwx------")) {
                assertEquals(dir, JobDirectory.open(dir).path());
            } else {
                final UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> JobDirectory.open(dir));
                assertTrue(e.getMessage().contains("has permissions " + mode), e::getMessage);
            }
            Files.delete(dir);
        }
    }

    @Test
    void shouldRefuseAJobDirectoryOwnedByAnotherUser() throws Exception {
        final Path dir = Files.createDirectory(base.path().resolve("foreign"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try (SecondUser other = SecondUser.create()) {
            try {
                final UserPrincipal owner = base.path().getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(other.name());
                Files.setOwner(dir, owner);
                final UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> JobDirectory.open(dir));
                assertTrue(e.getMessage().contains("job directory " + dir + " belongs to user " + other.name()),
                    e::getMessage);
            } finally {
                Files.delete(dir);
            }
        }
    }

    @Test
    void shouldRefuseAJobDirectoryThatIsASymbolicLink() throws IOException {
        final JobDirectory real = JobDirectory.create(base.path());
        final Path link = Files.createSymbolicLink(base.path().resolve("rma4j-link"), real.path());
        final UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> JobDirectory.open(link));
        assertTrue(e.getMessage().contains(link.toString()), e::getMessage);
        Files.delete(link);
        assertTrue(real.delete());
    }

    @Test
    void shouldRefuseToJoinAJobDirectoryThatOthersMayEnter() throws Exception {
        final JobDirectory directory = JobDirectory.create(base.path());
        ControlFile.create(directory.controlFile(), 1, ProcessHandle.current().pid()).close();
        Files.setPosixFilePermissions(directory.path(), PosixFilePermissions.fromString("rwxr-x---"));
        final List<String> command = new ArrayList<>(Launcher.builder().mainClass(PermissionsMain.class.getName())
            .jvmOptions(Jobs.FAST_JVM).args("join").build().command());
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put(JobEnvironment.JOB_DIR, directory.path().toString());
        builder.environment().put(JobEnvironment.RANK, "0");
        builder.environment().put(JobEnvironment.SIZE, "1");
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertNotEquals(0, process.exitValue(), output);
        assertFalse(output.contains("JOINED"), output);
        assertTrue(output.contains("has permissions rwxr-x---; a job directory must be rwx------"), output);
        assertTrue(directory.delete());
    }

    @Test
    void shouldNotFollowASymbolicLinkPlantedAtTheNameOfAJobFile() throws IOException {
        final Path victim = victim("victim");
        final JobDirectory directory = JobDirectory.create(base.path());
        final Path window = Files.createSymbolicLink(directory.file("win-0"), victim);
        final Path control = Files.createSymbolicLink(directory.controlFile(), victim);

        assertThrows(UncheckedIOException.class, () -> MappedFile.create(window, 4096));
        assertThrows(UncheckedIOException.class, () -> MappedFile.open(window));
        assertThrows(UncheckedIOException.class, () -> ControlFile.create(control, 2, 1));
        assertThrows(UncheckedIOException.class, () -> ControlFile.open(control));

        assertVictimUnchanged(victim);
        assertTrue(Files.isSymbolicLink(window) && Files.isSymbolicLink(control));
        assertTrue(directory.delete());
        assertVictimUnchanged(victim);
        Files.delete(victim);
    }

    @Test
    void shouldNotFollowSymbolicLinksPlantedInALiveJobDirectory() throws IOException {
        final Path victim = victim("victim");
        Rma.callThreads(2, base.path(), WaitOptions.defaults(), job -> {
            final Path dir = jobDirectory();
            if (job.rank() == 0) {
                Files.createSymbolicLink(dir.resolve("win-0"), victim);
                Files.createSymbolicLink(dir.resolve("mem-0-0"), victim);
            }
            job.barrier();
            final RmaException refused = assertThrows(RmaException.class, () -> job.allocateShared(4096, 8));
            assertEquals(ErrorClass.RMA_SHARED, refused.errorClass(), refused::getMessage);
            assertTrue(refused.getMessage().contains("rank 0 could not create the window file"), refused::getMessage);
            if (job.rank() == 0) {
                final RmaException allocMem = assertThrows(RmaException.class, () -> job.allocMem(64));
                assertEquals(ErrorClass.OTHER, allocMem.errorClass(), allocMem::getMessage);
                assertTrue(
                    allocMem.getMessage()
                        .contains("allocMem size=64 at rank 0: cannot create shared file " + dir.resolve("mem-0-0")),
                    allocMem::getMessage);
            }
            try (Window window = job.allocateShared(4096, 8)) {
                window.segment().set(ValueLayout.JAVA_LONG, 0, 7);
            }
            return null;
        });
        assertVictimUnchanged(victim);
        Files.delete(victim);
    }

    @Test
    void shouldRejectCorruptedOrTruncatedControlFiles() throws IOException {
        final JobDirectory directory = JobDirectory.create(base.path());
        ControlFile.create(directory.controlFile(), 2, ProcessHandle.current().pid()).close();
        final byte[] good = Files.readAllBytes(directory.controlFile());
        ControlFile.open(directory.controlFile()).close();
        final List<Corruption> table = new ArrayList<>(headerCorruptions(good.length));
        table.add(new Corruption("job size 0", bytes -> putInt(bytes, ControlLayout.RANKS_OFFSET, 0),
            "job size 0 is outside 1..4096"));
        table.add(new Corruption("job size -1", bytes -> putInt(bytes, ControlLayout.RANKS_OFFSET, -1),
            "job size -1 is outside"));
        table.add(new Corruption("job size 5000", bytes -> putInt(bytes, ControlLayout.RANKS_OFFSET, 5000),
            "job size 5000 is outside"));
        table.add(new Corruption("job size 3 in a file of 2", bytes -> putInt(bytes, ControlLayout.RANKS_OFFSET, 3),
            "does not fit a job of 3 ranks"));
        for (final Corruption corruption : table) {
            final Path copy = corruption.write(directory, "control-" + table.indexOf(corruption), good);
            final RuntimeException e = assertThrows(RuntimeException.class, () -> ControlFile.open(copy).close(),
                corruption.name);
            assertRejection(corruption, copy, e);
        }
        assertSpecialFilesRejected(directory, path -> ControlFile.open(path).close());
        assertTrue(directory.delete());
    }

    @Test
    void shouldRejectCorruptedOrTruncatedWindowFiles() throws IOException {
        final JobDirectory directory = JobDirectory.create(base.path());
        final Path original = directory.file("win-0");
        try (MappedFile file = MappedFile.create(original, 8192)) {
            file.segment().asSlice(FileHeader.LENGTH).fill((byte)0x5a);
            FileHeader.publish(file.segment(), WINDOW_MAGIC, WINDOW_VERSION);
        }
        final byte[] good = Files.readAllBytes(original);
        final Consumer<Path> open = path -> {
            try (MappedFile file = MappedFile.open(path)) {
                FileHeader.check(file.segment(), path, WINDOW_MAGIC, WINDOW_VERSION);
            }
        };
        open.accept(original);
        final List<Corruption> table = headerCorruptions(good.length);
        for (final Corruption corruption : table) {
            final Path copy = corruption.write(directory, "win-copy-" + table.indexOf(corruption), good);
            final RuntimeException e = assertThrows(RuntimeException.class, () -> open.accept(copy), corruption.name);
            assertRejection(corruption, copy, e);
        }
        assertSpecialFilesRejected(directory, open);
        assertTrue(directory.delete());
    }

    @Test
    void shouldNameJobDirectoriesWith128UnpredictableBits() throws IOException {
        final int samples = 256;
        final Path under = Files.createDirectory(base.path().resolve("names"));
        final Set<String> seen = new HashSet<>();
        final int[] ones = new int[128];
        byte[] previous = null;
        int smallestDistance = 128;
        for (int i = 0; i < samples; i++) {
            final JobDirectory directory = JobDirectory.create(under);
            final Matcher name = JOB_NAME.matcher(directory.path().getFileName().toString());
            assertTrue(name.matches(), directory::toString);
            assertEquals(ProcessHandle.current().pid(), Long.parseLong(name.group(1)));
            assertTrue(seen.add(name.group(2)), "a name came twice: " + name.group(2));
            final byte[] bits = HexFormat.of().parseHex(name.group(2));
            for (int bit = 0; bit < 128; bit++) {
                ones[bit] += (bits[bit / 8] >> (bit % 8)) & 1;
            }
            if (previous != null) {
                int distance = 0;
                for (int b = 0; b < 16; b++) {
                    distance += Integer.bitCount((bits[b] ^ previous[b]) & 0xff);
                }
                smallestDistance = Math.min(smallestDistance, distance);
            }
            previous = bits;
            assertTrue(directory.delete());
        }
        Files.delete(under);
        // Each bit is set in about half the names (6 standard deviations either side), and names made one after
        // the other differ in about half their bits (mean 64, standard deviation 5.7): no counter, clock or pid.
        for (int bit = 0; bit < 128; bit++) {
            assertTrue(ones[bit] > samples * 0.2 && ones[bit] < samples * 0.8,
                "bit " + bit + " set in " + ones[bit] + " of " + samples + " names");
        }
        assertTrue(smallestDistance >= 24, "two consecutive names differ in only " + smallestDistance + " bits");
    }

    /**
     * Corruptions of the common header, for any file of {@code length} bytes.
     */
    private static List<Corruption> headerCorruptions(final int length) {
        return List.of(
            new Corruption("magic", bytes -> putLong(bytes, FileHeader.MAGIC_OFFSET, 0x0123456789abcdefL),
                "magic 0x0123456789abcdef is not the expected"),
            new Corruption("version", bytes -> putInt(bytes, FileHeader.VERSION_OFFSET, 99), "layout version 99"),
            new Corruption("ready flag", bytes -> putInt(bytes, FileHeader.READY_OFFSET, 0),
                "was never completely initialised"),
            new Corruption("recorded size", bytes -> putLong(bytes, FileHeader.SIZE_OFFSET, 12345),
                "differs from the recorded 12345"),
            new Corruption("all zero", bytes -> Arrays.fill(bytes, (byte)0), "never completely initialised"),
            new Corruption("random bytes marked ready", bytes -> {
                new Random(1).nextBytes(bytes);
                putInt(bytes, FileHeader.READY_OFFSET, 1);
            }, "is not the expected 0x"), new Corruption("truncated to 0", 0, "size 0 is smaller than its header"),
            new Corruption("truncated into the header", FileHeader.LENGTH - 1,
                "size " + (FileHeader.LENGTH - 1) + " is smaller than its header"),
            new Corruption("truncated to half", length / 2,
                "size " + length / 2 + " differs from the recorded " + length),
            new Corruption("extended", length + 4096,
                "size " + (length + 4096) + " differs from the recorded " + length));
    }

    /**
     * A directory and a FIFO at a file's name are refused with an error, and opening neither blocks.
     */
    private static void assertSpecialFilesRejected(final JobDirectory directory, final Consumer<Path> open)
        throws IOException {
        final Path dir = Files.createDirectory(directory.file("a-directory"));
        final RuntimeException e = assertThrows(RuntimeException.class, () -> open.accept(dir));
        assertTrue(e.getMessage().contains(dir.toString()), e::getMessage);
        final Path fifo = directory.file("a-fifo");
        final Process mkfifo = new ProcessBuilder("mkfifo", "-m", "600", fifo.toString()).redirectErrorStream(true)
            .start();
        final String mkfifoOutput = new String(mkfifo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            assertEquals(0, mkfifo.waitFor(), "mkfifo (coreutils) failed: " + mkfifoOutput);
        } catch (final InterruptedException ie) {
            Thread.currentThread().interrupt();
            fail("interrupted while waiting for mkfifo", ie);
        }
        final RuntimeException f = assertThrows(RuntimeException.class, () -> open.accept(fifo));
        assertTrue(f.getMessage().contains(fifo.toString()), f::getMessage);
    }

    private static void assertRejection(final Corruption corruption, final Path copy, final RuntimeException e) {
        assertTrue(e instanceof ShmFormatException, corruption.name + ": " + e);
        assertTrue(e.getMessage().contains(copy.toString()), corruption.name + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(corruption.expected), corruption.name + ": " + e.getMessage());
    }

    private Path jobDirectory() throws IOException {
        try (var entries = Files.list(base.path())) {
            return entries.filter(entry -> entry.getFileName().toString().startsWith(JobDirectory.NAME_PREFIX))
                .findFirst().orElseThrow();
        }
    }

    private Path victim(final String name) throws IOException {
        return Files.writeString(base.path().resolve(name), VICTIM_TEXT);
    }

    private static void assertVictimUnchanged(final Path victim) throws IOException {
        assertArrayEquals(VICTIM_TEXT.getBytes(StandardCharsets.UTF_8), Files.readAllBytes(victim),
            "a planted symbolic link was followed");
    }

    private static void putInt(final byte[] bytes, final int offset, final int value) {
        ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).putInt(offset, value);
    }

    private static void putLong(final byte[] bytes, final int offset, final long value) {
        ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).putLong(offset, value);
    }

    /**
     * One way to spoil a copy of a good file.
     *
     * @param name     what is spoilt.
     * @param change   how the bytes are changed (null: only the length changes).
     * @param length   the copy's length (-1: unchanged).
     * @param expected a fragment of the expected error message.
     */
    private record Corruption(String name, Consumer<byte[]> change, int length, String expected) {
        Corruption(final String name, final Consumer<byte[]> change, final String expected) {
            this(name, change, -1, expected);
        }

        Corruption(final String name, final int length, final String expected) {
            this(name, null, length, expected);
        }

        Path write(final JobDirectory directory, final String fileName, final byte[] good) throws IOException {
            byte[] bytes = good.clone();
            if (change != null) {
                change.accept(bytes);
            }
            if (length >= 0) {
                bytes = Arrays.copyOf(bytes, length);
            }
            final Path copy = Files.createFile(directory.file(fileName),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(copy, bytes);
            return copy;
        }
    }

}
