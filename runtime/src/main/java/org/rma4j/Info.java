package org.rma4j;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Hints passed to window creation (MPI_Info, MPI-3.1 sections 11.2.1-11.2.3 and 11.2.7).
 *
 * <p>Keys the standard predefines for windows are validated when a window is created (a malformed
 * value raises {@link ErrorClass#INFO_VALUE}); unknown keys are kept and ignored, as MPI does.
 * Not thread-safe; a window copies the info it is given.
 */
public final class Info {
    /** Passive-target synchronization will not be used (lock / lock_all raise RMA_SYNC). */
    public static final String NO_LOCKS = "no_locks";
    /** Ordering of accumulates from one origin to one location: none or a subset of rar,raw,war,waw. */
    public static final String ACCUMULATE_ORDERING = "accumulate_ordering";
    /** same_op or same_op_no_op. */
    public static final String ACCUMULATE_OPS = "accumulate_ops";
    /** Every rank passes the same size. */
    public static final String SAME_SIZE = "same_size";
    /** Rank segments of a shared window need not be contiguous. */
    public static final String ALLOC_SHARED_NONCONTIG = "alloc_shared_noncontig";

    /** The values of the predefined keys when a window is given none. */
    static final Map<String, String> DEFAULTS = Map.of(NO_LOCKS, "false", ACCUMULATE_ORDERING, "rar,raw,war,waw",
        ACCUMULATE_OPS, "same_op_no_op", SAME_SIZE, "false", ALLOC_SHARED_NONCONTIG, "false");

    private final Map<String, String> entries = new LinkedHashMap<>();

    /**
     * MPI_INFO_CREATE.
     *
     * @return an empty info object (MPI_INFO_NULL and a fresh MPI_Info behave alike).
     */
    public static Info create() {
        return new Info();
    }

    /**
     * MPI_INFO_CREATE then MPI_INFO_SET.
     *
     * @return an info object with one entry.
     */
    public static Info of(final String key, final String value) {
        return new Info().set(key, value);
    }

    /**
     * Sets a key (MPI_INFO_SET).
     *
     * @return this.
     */
    public Info set(final String key, final String value) {
        if (key == null || key.isEmpty() || key.length() > 255) {
            throw new RmaException(ErrorClass.INFO_KEY, "info key '" + key + "' must have 1..255 characters");
        }
        if (value == null) {
            throw new RmaException(ErrorClass.INFO_VALUE, "info value of key '" + key + "' is null");
        }
        entries.put(key, value);
        return this;
    }

    /**
     * @return the value of key, if set (MPI_INFO_GET).
     */
    public Optional<String> get(final String key) {
        return Optional.ofNullable(entries.get(key));
    }

    /**
     * MPI_INFO_GET_NKEYS and MPI_INFO_GET_NTHKEY.
     *
     * @return the keys in insertion order.
     */
    public Set<String> keys() {
        return Collections.unmodifiableSet(entries.keySet());
    }

    /**
     * @return a copy (MPI_INFO_DUP).
     */
    public Info dup() {
        final Info copy = new Info();
        copy.entries.putAll(entries);
        return copy;
    }

    Map<String, String> asMap() {
        return Collections.unmodifiableMap(entries);
    }

    /**
     * Parses a boolean hint; the standard spells them "true" / "false".
     */
    boolean flag(final String key) {
        final String value = entries.getOrDefault(key, DEFAULTS.getOrDefault(key, "false")).trim()
            .toLowerCase(Locale.ROOT);
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new RmaException(ErrorClass.INFO_VALUE,
                "info " + key + "=" + entries.get(key) + " is not true or false");
        };
    }

    @Override
    public String toString() {
        return "Info" + entries;
    }
}
