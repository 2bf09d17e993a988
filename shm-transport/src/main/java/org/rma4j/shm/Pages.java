package org.rma4j.shm;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * Maps the pages of a shared mapping into this process's page tables before their first access
 * (prefaulting), so that the first store or load of each page does not take a page fault on a hot path.
 *
 * <p>Why: a file of {@link MappedFile#create} has every page allocated ({@link FileSpace}), but each
 * process that maps it still takes one fault per page at the first access of that page through its own
 * mapping. A producer that puts a tile into a fresh window and the consumer that reads it each fault once
 * per page: a few microseconds each, more under virtualization, which a put of a few pages otherwise does
 * not cost.
 *
 * <p>How: Linux {@code madvise(MADV_POPULATE_WRITE)} (since 5.14) through the FFM linker, which faults
 * the range in writable with one system call and changes no byte; where that fails (an older kernel,
 * another OS, no native access) one load per page, which maps a page of a shared file writable as well
 * (tmpfs tracks no dirty pages) and changes no byte either. Either way it is safe while other processes
 * store into the same pages.
 */
public final class Pages {
    /** Step of the loads of the fallback: the smallest page size of the platforms the runtime runs on. */
    static final long PAGE_BYTES = 4096;
    /** {@code MADV_POPULATE_WRITE} of asm-generic/mman-common.h (every Linux architecture). */
    static final int MADV_POPULATE_WRITE = 23;

    private static final MethodHandle MADVISE = lookupMadvise();

    /** Sum of the fallback's loads, so that the JIT keeps them. */
    @SuppressWarnings("unused")
    private static volatile long sink;

    private Pages() {
    }

    /**
     * Maps every page that {@code range} touches into this process (a range need not be page-aligned: the
     * pages around its ends are included). No byte changes.
     *
     * @param range a slice of a shared read-write mapping, or {@link MemorySegment#NULL} (nothing to do).
     * @return true if the kernel populated the range in one call; false if it was touched page by page.
     */
    public static boolean populate(final MemorySegment range) {
        if (range.byteSize() == 0) {
            return true;
        }
        if (MADVISE != null) {
            final long start = range.address() & -PAGE_BYTES;
            final long end = range.address() + range.byteSize();
            try {
                if ((int)MADVISE.invokeExact(MemorySegment.ofAddress(start), end - start, MADV_POPULATE_WRITE) == 0) {
                    return true;
                }
            } catch (final Throwable t) {
                throw new IllegalStateException("madvise(MADV_POPULATE_WRITE) failed", t);
            }
        }
        touch(range);
        return false;
    }

    /**
     * The fallback of {@link #populate}: one load of every page of {@code range}.
     */
    static void touch(final MemorySegment range) {
        final long size = range.byteSize();
        final long first = -range.address() & (PAGE_BYTES - 1);
        long sum = 0;
        for (long offset = first; offset < size; offset += PAGE_BYTES) {
            sum += range.get(ValueLayout.JAVA_BYTE, offset);
        }
        if (size > 0) {
            sum += range.get(ValueLayout.JAVA_BYTE, 0);
        }
        sink = sum;
    }

    private static MethodHandle lookupMadvise() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return null;
        }
        try {
            final Linker linker = Linker.nativeLinker();
            // int madvise(void *addr, size_t length, int advice)
            return linker.downcallHandle(linker.defaultLookup().find("madvise").orElseThrow(), FunctionDescriptor
                .of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
        } catch (final RuntimeException e) {
            // IllegalCallerException without native access, NoSuchElementException without the symbol.
            return null;
        }
    }
}
