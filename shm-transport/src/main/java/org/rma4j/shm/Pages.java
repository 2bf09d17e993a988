package org.rma4j.shm;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
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
 * the range in writable with one system call and changes no byte, then one atomic add of zero to a word of
 * each page ({@link #write}): a store from this process's own user mode, which changes no byte either. The
 * system call fills the kernel's page tables, but a virtual machine whose hypervisor keeps shadow page tables
 * (a PVM guest such as the 2-vCPU VM of bench/README) maps a page for the process's stores only at its first store from
 * user mode: there, after the system call alone, the first copy of 8 KiB into a fresh 4 MiB mapping took 11-17
 * µs against 0.2-0.4 µs with the stores as well (the stores themselves about 6 µs per page, which the first
 * put of each page otherwise paid; a load per page does not help, the first store faults again). On a host
 * without such tables each store costs a cache miss. Where the system call fails (an older kernel, another
 * OS, no native access) the stores alone fault the pages in. An atomic add of zero is safe while other
 * processes store into the same pages: it writes back the value it read in one indivisible step.
 */
public final class Pages {
    /** Step of the stores: the smallest page size of the platforms the runtime runs on. */
    static final long PAGE_BYTES = 4096;
    /** {@code MADV_POPULATE_WRITE} of asm-generic/mman-common.h (every Linux architecture). */
    static final int MADV_POPULATE_WRITE = 23;

    private static final MethodHandle MADVISE = lookupMadvise();

    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private Pages() {
    }

    /**
     * Maps every page that {@code range} touches into this process, writable (a range need not be
     * page-aligned: the pages around its ends are included, and written where a 4-byte aligned word of the
     * range lies in them). No byte changes.
     *
     * @param range  a slice of a shared read-write mapping, or {@link MemorySegment#NULL} (nothing to do).
     * @param stores whether to store into every page after the system call as well (the stores are made anyway
     *               where the system call fails).
     * @return true if the kernel populated the range in one call; false if only the stores faulted it in.
     */
    public static boolean populate(final MemorySegment range, final boolean stores) {
        if (range.byteSize() == 0) {
            return true;
        }
        boolean populated = false;
        if (MADVISE != null) {
            final long start = range.address() & -PAGE_BYTES;
            final long end = range.address() + range.byteSize();
            try {
                populated = (int)MADVISE.invokeExact(MemorySegment.ofAddress(start), end - start,
                    MADV_POPULATE_WRITE) == 0;
            } catch (final Throwable t) {
                throw new IllegalStateException("madvise(MADV_POPULATE_WRITE) failed", t);
            }
        }
        if (stores || !populated) {
            write(range);
        }
        return populated;
    }

    /**
     * One atomic add of zero to a 4-byte aligned word of every page of {@code range}: its first such word,
     * and the first word of each later page (the stores of {@link #populate}).
     */
    static void write(final MemorySegment range) {
        final long size = range.byteSize();
        final long firstWord = -range.address() & (Integer.BYTES - 1);
        if (firstWord + Integer.BYTES <= size) {
            INT.getAndAdd(range, firstWord, 0);
        }
        final long firstPage = -range.address() & (PAGE_BYTES - 1);
        for (long offset = firstPage == 0 ? PAGE_BYTES : firstPage; offset
            + Integer.BYTES <= size; offset += PAGE_BYTES) {
            INT.getAndAdd(range, offset, 0);
        }
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
