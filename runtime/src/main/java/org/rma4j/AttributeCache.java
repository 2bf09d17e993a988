package org.rma4j;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What a window caches at this rank beyond its memory (MPI-3.1 sections 6.7.3, 6.8, 11.2.6 and 11.2.7):
 * the hints in effect (MPI_WIN_SET_INFO / MPI_WIN_GET_INFO), the window's name (MPI_WIN_SET_NAME /
 * MPI_WIN_GET_NAME) and the attributes set with keys of {@link Keyval} (MPI_WIN_SET_ATTR, GET_ATTR,
 * DELETE_ATTR). Javadoc of each call: {@link WindowAttributes}.
 *
 * <p>Order of deletion: attributes are kept in the order they were set (a replaced value counts as set
 * anew), and {@link #deleteAll} at MPI_WIN_FREE calls the delete callbacks in the reverse of that order.
 * MPI-3.1 section 6.7.2 leaves the order of the callbacks at a free unspecified; the one order the standard
 * prescribes anywhere is this one, for MPI_COMM_SELF at MPI_FINALIZE (section 8.7.1), so a library that
 * sets an attribute after another library's finds its own deleted first.
 *
 * <p>Thread-safe (one monitor); a delete callback runs holding it and may read the window's attributes.
 */
final class AttributeCache {
    /**
     * Hints fixed by the window's creation (its layout or checks), which MPI_WIN_SET_INFO ignores; it changes
     * no_locks, accumulate_ordering, accumulate_ops and unknown keys.
     */
    static final Set<String> FIXED = Set.of(Info.SAME_SIZE, Info.ALLOC_SHARED_NONCONTIG,
        RmaJob.NOTIFY_CAPACITY_INFO_KEY, RmaJob.EPOCH_CHECKS_INFO_KEY);

    private final Window window;
    private final WindowState state;
    /** The calls below hand their {@link RmaException} to the window's error handler before it leaves. */
    private final WindowErrors errors;
    private final Consumer<Info> apply;
    private final Map<Keyval<?>, Object> values = new LinkedHashMap<>();
    private Info info;
    private String name = "";

    /**
     * @param info  the hints in effect since creation.
     * @param apply makes the window's parts follow new hints (no_locks).
     */
    AttributeCache(final Window window, final WindowState state, final Info info, final Consumer<Info> apply,
        final WindowErrors errors) {
        this.window = window;
        this.state = state;
        this.errors = errors;
        this.info = info;
        this.apply = apply;
    }

    synchronized Info getInfo() {
        return info.dup();
    }

    /**
     * MPI_WIN_SET_INFO: the keys of {@code update} replace the hints in effect, except the fixed ones,
     * which are ignored; keys it does not name keep their values (section 11.2.7). Validated as at creation
     * before anything changes.
     */
    void setInfo(final Info update) {
        try {
            updateInfo(update);
        } catch (final RmaException e) {
            throw errors.raise("setInfo", e);
        }
    }

    private synchronized void updateInfo(final Info update) {
        state.checkOpen("setInfo");
        final Info merged = info.dup();
        if (update != null) {
            for (final String key : update.keys()) {
                if (!FIXED.contains(key)) {
                    merged.set(key, update.get(key).orElseThrow());
                }
            }
        }
        // NOTE: merged keeps the creation's notify capacity (a fixed key), so the default for the ranks never applies.
        final Info effective = WindowCreation.validate("setInfo", 0, 1, merged, state.sizes().length);
        apply.accept(effective);
        info = effective;
    }

    synchronized String getName() {
        return name;
    }

    /**
     * MPI_WIN_SET_NAME: names longer than {@link Window#MAX_OBJECT_NAME} - 1 characters are truncated, as MPI
     * does (section 6.8).
     */
    void setName(final String newName) {
        try {
            updateName(newName);
        } catch (final RmaException e) {
            throw errors.raise("setName", e);
        }
    }

    private synchronized void updateName(final String newName) {
        state.checkOpen("setName");
        if (newName == null) {
            throw new RmaException(ErrorClass.ARG, "setName name is null");
        }
        name = newName.length() < Window.MAX_OBJECT_NAME ? newName : newName.substring(0, Window.MAX_OBJECT_NAME - 1);
    }

    /**
     * MPI_WIN_SET_ATTR: a value already set under the key is deleted first (its delete callback runs, as for
     * MPI_WIN_DELETE_ATTR); if that callback fails, the old value stays and nothing is set.
     */
    <T> void set(final Keyval<T> keyval, final T value) {
        try {
            put(keyval, value);
        } catch (final RmaException e) {
            throw errors.raise("setAttr", e);
        }
    }

    private synchronized <T> void put(final Keyval<T> keyval, final T value) {
        state.checkOpen("setAttr");
        checkUserKey("setAttr", keyval);
        if (value == null) {
            throw new RmaException(ErrorClass.ARG, "setAttr value for " + keyval + " is null");
        }
        if (values.containsKey(keyval)) {
            delete("setAttr", keyval);
        }
        values.put(keyval, value);
    }

    /**
     * MPI_WIN_GET_ATTR: empty if nothing is set under the key (MPI's flag = false).
     */
    <T> Optional<T> get(final Keyval<T> keyval) {
        try {
            return lookUp(keyval);
        } catch (final RmaException e) {
            throw errors.raise("getAttr", e);
        }
    }

    private synchronized <T> Optional<T> lookUp(final Keyval<T> keyval) {
        state.checkOpen("getAttr");
        checkKey("getAttr", keyval);
        if (keyval.isPredefined()) {
            return Optional.of(keyval.predefinedValue(window));
        }
        @SuppressWarnings("unchecked")
        final T value = (T)values.get(keyval);
        return Optional.ofNullable(value);
    }

    /**
     * MPI_WIN_DELETE_ATTR: runs the delete callback, then removes the value; if the callback throws, the
     * value stays and the call throws. Nothing set under the key: nothing happens.
     */
    void delete(final Keyval<?> keyval) {
        try {
            remove(keyval);
        } catch (final RmaException e) {
            throw errors.raise("deleteAttr", e);
        }
    }

    private synchronized void remove(final Keyval<?> keyval) {
        state.checkOpen("deleteAttr");
        checkUserKey("deleteAttr", keyval);
        if (values.containsKey(keyval)) {
            delete("deleteAttr", keyval);
        }
    }

    /**
     * At MPI_WIN_FREE: deletes every attribute, in the reverse order of setting. Every callback runs and
     * every attribute goes, whatever a callback throws.
     *
     * @return the failure of the first callback that threw, or null.
     */
    synchronized RmaException deleteAll() {
        final List<Keyval<?>> keys = new ArrayList<>(values.keySet());
        RmaException first = null;
        for (int i = keys.size() - 1; i >= 0; i--) {
            try {
                delete("free", keys.get(i));
            } catch (final RmaException e) {
                values.remove(keys.get(i));
                first = first == null ? e : first;
            }
        }
        return first;
    }

    private <T> void delete(final String call, final Keyval<T> keyval) {
        @SuppressWarnings("unchecked")
        final T value = (T)values.get(keyval);
        try {
            keyval.deleteFunction().delete(window, keyval, value, keyval.extraState());
        } catch (final RmaException e) {
            throw e;
        } catch (final RuntimeException e) {
            throw new RmaException(ErrorClass.OTHER, call + ": the delete callback of " + keyval + " threw " + e, e);
        }
        values.remove(keyval);
    }

    private static void checkKey(final String call, final Keyval<?> keyval) {
        if (keyval == null) {
            throw new RmaException(ErrorClass.KEYVAL, call + " keyval is null");
        }
        if (keyval.isFreed()) {
            throw new RmaException(ErrorClass.KEYVAL, call + " of " + keyval + ", which was freed (freeKeyval)");
        }
    }

    private static void checkUserKey(final String call, final Keyval<?> keyval) {
        checkKey(call, keyval);
        if (keyval.isPredefined()) {
            throw new RmaException(ErrorClass.KEYVAL,
                call + " of the predefined " + keyval + ": it is the window's own, read-only (section 11.2.6)");
        }
    }
}
