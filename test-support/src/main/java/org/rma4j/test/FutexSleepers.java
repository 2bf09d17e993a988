package org.rma4j.test;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * A handshake for wake-up tests: the threads of this JVM that are blocked in {@code FUTEX_WAIT} on a
 * given word, as the kernel reports them in {@code /proc/self/task/<tid>/syscall} (the syscall number
 * and its arguments, shown only while the thread sleeps in it). A wake issued once {@link #await}
 * returned reaches a sleeper that is provably asleep, so a test that passes proves the wake.
 */
public final class FutexSleepers {
    private static final Path TASKS = Path.of("/proc/self/task");
    private static final String FUTEX_WAIT = "0x0";

    private FutexSleepers() {
    }

    /**
     * Waits until at least {@code count} threads of this JVM sleep in FUTEX_WAIT on the word at
     * {@code offset} of {@code segment}; fails after {@link ShmTestDirectory#EVENT_TIMEOUT_SECONDS}.
     */
    public static void await(final MemorySegment segment, final long offset, final int count) {
        ShmTestDirectory.awaitCondition(() -> count(segment, offset) >= count,
            count + " thread(s) asleep in FUTEX_WAIT on the word at offset " + offset);
    }

    /**
     * @return how many threads of this JVM sleep in FUTEX_WAIT on the word at {@code offset}.
     */
    public static int count(final MemorySegment segment, final long offset) {
        final String number = Long.toString(syscallNumber());
        final String address = "0x" + Long.toHexString(segment.address() + offset);
        int sleepers = 0;
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (final Path task : tasks.toList()) {
                final List<String> fields = List.of(read(task.resolve("syscall")).trim().split(" "));
                if (fields.size() > 2 && fields.get(0).equals(number) && fields.get(1).equals(address)
                    && fields.get(2).equals(FUTEX_WAIT)) {
                    sleepers++;
                }
            }
        } catch (final IOException e) {
            return fail("cannot list the threads of this JVM in " + TASKS, e);
        }
        return sleepers;
    }

    private static String read(final Path file) throws IOException {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        } catch (final NoSuchFileException e) {
            return "";
        }
    }

    private static long syscallNumber() {
        return switch (System.getProperty("os.arch", "").toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> 202;
            case "aarch64", "riscv64" -> 98;
            default -> fail("no futex syscall number known for os.arch=" + System.getProperty("os.arch"));
        };
    }
}
