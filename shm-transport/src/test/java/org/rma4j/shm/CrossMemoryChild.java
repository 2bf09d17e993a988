package org.rma4j.shm;

import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The other process of {@link CrossMemoryTest}: fills native memory of the size given with
 * {@link #expected the test's pattern}, prints its pid and the memory's address on one line, and exits when its
 * standard input ends.
 */
final class CrossMemoryChild {
    private CrossMemoryChild() {
    }

    /** @return byte {@code i} of the pattern. */
    static byte expected(final long i) {
        return (byte)(i * 31 + 7);
    }

    public static void main(final String[] args) throws Exception {
        final long size = Long.parseLong(args[0]);
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment memory = arena.allocate(size, 64);
            for (long i = 0; i < size; i++) {
                memory.set(ValueLayout.JAVA_BYTE, i, expected(i));
            }
            System.out.println(ProcessHandle.current().pid() + " " + memory.address());
            System.out.flush();
            System.in.transferTo(OutputStream.nullOutputStream());
        }
    }
}
