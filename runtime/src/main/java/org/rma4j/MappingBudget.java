package org.rma4j;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The number of memory mappings the runtime may hold in this process, so that windows and
 * {@code allocMem} can never use up the kernel's per-process limit ({@code vm.max_map_count}): when the
 * JVM itself cannot map (a thread stack, heap, code) it aborts. Creating a window or allocating memory
 * beyond the budget raises {@link ErrorClass#NO_MEM} before anything is mapped, in constant time.
 *
 * <p>The budget is {@value #MAX_MAPPINGS_PROP_NAME}, or by default half of {@code vm.max_map_count}
 * (read once from {@code /proc/sys/vm/max_map_count}; {@value #MAX_MAP_COUNT_FALLBACK} where it cannot be
 * read), which leaves the other half to the JVM and native libraries. A window counts one mapping per
 * file it maps: its window file, plus for {@code create} the memory of every other rank, plus for a
 * dynamic window every region of another rank it has reached. Thread-safe; the check and the count are
 * separate steps, so concurrent creations may pass the budget by a few mappings, which the half left to
 * the JVM absorbs.
 */
final class MappingBudget {
    /** System property: the most mappings the runtime holds in one process. */
    static final String MAX_MAPPINGS_PROP_NAME = "rma4j.mappings.max";
    /** The kernel's default {@code vm.max_map_count}. */
    static final long MAX_MAP_COUNT_FALLBACK = 65530;

    private static final Path MAX_MAP_COUNT = Path.of("/proc/sys/vm/max_map_count");
    private static final long LIMIT = limit();
    private static final AtomicLong LIVE = new AtomicLong();

    private MappingBudget() {
    }

    /**
     * @return the budget of this process.
     */
    static long limit() {
        final Long configured = Long.getLong(MAX_MAPPINGS_PROP_NAME);
        if (configured != null) {
            return Math.max(0, configured);
        }
        return defaultLimit(maxMapCount());
    }

    /**
     * @return the default budget for a kernel limit of {@code maxMapCount}: half of it.
     */
    static long defaultLimit(final long maxMapCount) {
        return maxMapCount / 2;
    }

    /**
     * @throws RmaException NO_MEM if {@code mappings} more would exceed the budget.
     */
    static void check(final String call, final long mappings) {
        final long live = LIVE.get();
        if (live + mappings > LIMIT) {
            throw new RmaException(ErrorClass.NO_MEM,
                call + " needs " + mappings + " more memory mapping(s), but this" + " process holds " + live
                    + " of the " + LIMIT + " rma4j may use (half of vm.max_map_count=" + maxMapCount() + ", or -D"
                    + MAX_MAPPINGS_PROP_NAME + "); free windows or allocMem memory first");
        }
    }

    /**
     * Checks and counts {@code mappings} new mappings.
     *
     * @throws RmaException NO_MEM if they would exceed the budget; nothing is counted then.
     */
    static void acquire(final String call, final long mappings) {
        check(call, mappings);
        LIVE.addAndGet(mappings);
    }

    /**
     * Counts {@code mappings} new mappings already made, without a check.
     */
    static void add(final long mappings) {
        LIVE.addAndGet(mappings);
    }

    /**
     * Counts {@code mappings} mappings as unmapped.
     */
    static void release(final long mappings) {
        LIVE.addAndGet(-mappings);
    }

    /**
     * @return the mappings the runtime holds in this process.
     */
    static long live() {
        return LIVE.get();
    }

    private static long maxMapCount() {
        // NOTE: read as a stream: Files.readString trusts the size procfs reports and returns only the first byte.
        try (InputStream in = Files.newInputStream(MAX_MAP_COUNT)) {
            return Long.parseLong(new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim());
        } catch (final IOException | NumberFormatException | SecurityException e) {
            return MAX_MAP_COUNT_FALLBACK;
        }
    }
}
