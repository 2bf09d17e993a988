package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.TestProcesses;

/**
 * {@link CrossMemory} reading and writing another JVM's native memory: into and from native memory and a heap array
 * larger than the scratch buffer, at an offset, and the errors of an unmapped range and of a process that has ended.
 */
@Timeout(120)
class CrossMemoryTest {
    /** More than the heap path's scratch buffer, and not a multiple of a page. */
    private static final long SIZE = 2 * CrossMemory.SCRATCH_BYTES + 4099;

    @Test
    void shouldBeAvailableOnLinuxWithoutAYamaRestriction() throws Exception {
        final Path yama = Path.of("/proc/sys/kernel/yama/ptrace_scope");
        final boolean allowed = !Files.exists(yama) || Files.readString(yama).strip().equals("0");
        assertEquals(Files.exists(Path.of("/proc/self")) && allowed, CrossMemory.isAvailable());
    }

    @Test
    void shouldReadAndWriteAnotherProcesssMemoryFromNativeAndHeapMemoryAndReportItsEnd() throws Exception {
        assertTrue(CrossMemory.isAvailable(), "process_vm_readv works on this machine (see the test above)");
        final Process child = new ProcessBuilder(TestProcesses.javaCommand(CrossMemoryChild.class, Long.toString(SIZE)))
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (Arena arena = Arena.ofConfined()) {
            final String[] line = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII)).readLine().split(" ");
            final long pid = Long.parseLong(line[0]);
            final long address = Long.parseLong(line[1]);
            assertEquals(child.pid(), pid);

            final MemorySegment nativeInto = arena.allocate(SIZE);
            assertEquals(0, CrossMemory.read(pid, address, nativeInto));
            assertPattern(nativeInto, 0);

            final byte[] heap = new byte[(int)SIZE - 5];
            assertEquals(0, CrossMemory.read(pid, address + 5, MemorySegment.ofArray(heap)));
            assertPattern(MemorySegment.ofArray(heap), 5);

            // Written into the other process from native and heap memory, then read back.
            final byte[] written = new byte[(int)SIZE - 9];
            for (int i = 0; i < written.length; i++) {
                written[i] = (byte)(i * 13 + 1);
            }
            assertEquals(0, CrossMemory.write(pid, address + 9, MemorySegment.ofArray(written)));
            final byte[] back = new byte[written.length];
            assertEquals(0, CrossMemory.read(pid, address + 9, MemorySegment.ofArray(back)));
            assertArrayEquals(written, back);
            final MemorySegment nativeFrom = arena.allocate(4096);
            nativeFrom.fill((byte)0x5A);
            assertEquals(0, CrossMemory.write(pid, address, nativeFrom));
            assertEquals(0, CrossMemory.read(pid, address, nativeInto.asSlice(0, 4096)));
            assertArrayEquals(nativeFrom.toArray(ValueLayout.JAVA_BYTE),
                nativeInto.asSlice(0, 4096).toArray(ValueLayout.JAVA_BYTE));

            final MemorySegment nothing = arena.allocate(0);
            assertEquals(0, CrossMemory.read(pid, 0, nothing), "an empty read reads nothing");
            assertEquals(CrossMemory.EFAULT, CrossMemory.read(pid, 4096, arena.allocate(64)), "page 1 is unmapped");
            assertEquals(CrossMemory.EFAULT, CrossMemory.write(pid, 4096, arena.allocate(64)), "page 1 is unmapped");

            child.getOutputStream().close();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, child.exitValue());
            assertEquals(CrossMemory.ESRCH, CrossMemory.read(pid, address, arena.allocate(64)));
            assertEquals(CrossMemory.ESRCH, CrossMemory.write(pid, address, arena.allocate(64)));
        } finally {
            child.destroyForcibly();
        }
    }

    private static void assertPattern(final MemorySegment read, final long from) {
        for (long i = 0; i < read.byteSize(); i++) {
            if (read.get(ValueLayout.JAVA_BYTE, i) != CrossMemoryChild.expected(from + i)) {
                throw new AssertionError("byte " + i + " of a read from offset " + from + " is "
                    + read.get(ValueLayout.JAVA_BYTE, i) + ", not " + CrossMemoryChild.expected(from + i));
            }
        }
    }
}
