package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.util.Optional;
import java.util.function.Function;

/**
 * A window attribute key (a win_keyval of MPI_WIN_CREATE_KEYVAL, MPI-3.1 section 6.7.3): the key under
 * which {@link Window#setAttr} caches a value of type {@code T} on a window, with the callbacks MPI
 * attaches to it. Made by {@link Window#createKeyval}, released by {@link Window#freeKeyval}.
 *
 * <p>The predefined keys {@link #WIN_BASE}, {@link #WIN_SIZE}, {@link #WIN_DISP_UNIT},
 * {@link #WIN_CREATE_FLAVOR} and {@link #WIN_MODEL} (section 11.2.6) read the window's attributes through
 * {@link Window#getAttr}; they cannot be set, deleted or freed ({@link ErrorClass#KEYVAL}).
 *
 * <p>The delete callback runs when a value is deleted ({@link Window#deleteAttr}), replaced
 * ({@link Window#setAttr} of a key already set) or when the window is freed. The copy callback is kept
 * for the symmetry of MPI_WIN_CREATE_KEYVAL but never called: MPI has no call that duplicates a window.
 * A key is a process-local object, like MPI's keyvals; thread-safe.
 *
 * @param <T> the type of the values cached under the key.
 */
public final class Keyval<T> {
    /** MPI_WIN_COPY_ATTR_FUNCTION: never called for windows (MPI duplicates no window). */
    @FunctionalInterface
    public interface CopyFunction<T> {
        /**
         * @return the value for the copy of {@code oldWindow}, or empty to copy nothing.
         */
        Optional<T> copy(Window oldWindow, Keyval<T> keyval, Object extraState, T value);
    }

    /** MPI_WIN_DELETE_ATTR_FUNCTION: called with the value that leaves the window. */
    @FunctionalInterface
    public interface DeleteFunction<T> {
        /**
         * Releases what {@code value} holds. An exception fails the call that deleted the value (see
         * {@link Window#deleteAttr}).
         */
        void delete(Window window, Keyval<T> keyval, T value, Object extraState);
    }

    /** MPI_WIN_BASE: this rank's memory ({@link Window#segment()}; MPI_BOTTOM, the NULL segment, if dynamic). */
    public static final Keyval<MemorySegment> WIN_BASE = predefined("MPI_WIN_BASE", Window::segment);
    /** MPI_WIN_SIZE: this rank's size in bytes. */
    public static final Keyval<Long> WIN_SIZE = predefined("MPI_WIN_SIZE", Window::size);
    /** MPI_WIN_DISP_UNIT: this rank's displacement unit. */
    public static final Keyval<Integer> WIN_DISP_UNIT = predefined("MPI_WIN_DISP_UNIT", Window::dispUnit);
    /** MPI_WIN_CREATE_FLAVOR: how the window was created. */
    public static final Keyval<WindowFlavor> WIN_CREATE_FLAVOR = predefined("MPI_WIN_CREATE_FLAVOR", Window::flavor);
    /** MPI_WIN_MODEL: the memory model, always UNIFIED. */
    public static final Keyval<MemoryModel> WIN_MODEL = predefined("MPI_WIN_MODEL", Window::model);

    private final String name;
    private final CopyFunction<T> copyFunction;
    private final DeleteFunction<T> deleteFunction;
    private final Object extraState;
    private final Function<Window, T> predefined;
    private volatile boolean freed;

    private Keyval(final String name, final CopyFunction<T> copyFunction, final DeleteFunction<T> deleteFunction,
        final Object extraState, final Function<Window, T> predefined) {
        this.name = name;
        this.copyFunction = copyFunction;
        this.deleteFunction = deleteFunction;
        this.extraState = extraState;
        this.predefined = predefined;
    }

    private static <T> Keyval<T> predefined(final String name, final Function<Window, T> attribute) {
        return new Keyval<>(name, nullCopyFn(), nullDeleteFn(), null, attribute);
    }

    /**
     * MPI_WIN_CREATE_KEYVAL; see {@link Window#createKeyval}.
     */
    static <T> Keyval<T> create(final CopyFunction<T> copyFunction, final DeleteFunction<T> deleteFunction,
        final Object extraState) {
        if (copyFunction == null || deleteFunction == null) {
            throw new RmaException(ErrorClass.ARG, "createKeyval copy and delete functions must not be null (use"
                + " Keyval.nullCopyFn() and Keyval.nullDeleteFn())");
        }
        return new Keyval<>(null, copyFunction, deleteFunction, extraState, null);
    }

    /**
     * @return MPI_WIN_NULL_COPY_FN: copies nothing.
     */
    public static <T> CopyFunction<T> nullCopyFn() {
        return (window, keyval, extraState, value) -> Optional.empty();
    }

    /**
     * @return MPI_WIN_DUP_FN: copies the value itself.
     */
    public static <T> CopyFunction<T> dupFn() {
        return (window, keyval, extraState, value) -> Optional.of(value);
    }

    /**
     * @return MPI_WIN_NULL_DELETE_FN: does nothing.
     */
    public static <T> DeleteFunction<T> nullDeleteFn() {
        return (window, keyval, value, extraState) -> {
        };
    }

    /**
     * @return the copy callback (kept, never called for windows).
     */
    public CopyFunction<T> copyFunction() {
        return copyFunction;
    }

    /**
     * @return the extra state given at creation, passed to the callbacks.
     */
    public Object extraState() {
        return extraState;
    }

    /**
     * @return whether this is one of the predefined keys of section 11.2.6.
     */
    public boolean isPredefined() {
        return predefined != null;
    }

    /**
     * @return whether {@link Window#freeKeyval} was called with this key.
     */
    public boolean isFreed() {
        return freed;
    }

    DeleteFunction<T> deleteFunction() {
        return deleteFunction;
    }

    /**
     * @return the predefined attribute's value of {@code window}.
     */
    T predefinedValue(final Window window) {
        return predefined.apply(window);
    }

    /**
     * MPI_WIN_FREE_KEYVAL; see {@link Window#freeKeyval}.
     */
    void free() {
        if (isPredefined()) {
            throw new RmaException(ErrorClass.KEYVAL, "freeKeyval of the predefined " + name);
        }
        freed = true;
    }

    @Override
    public String toString() {
        return name != null
            ? name
            : "Keyval@" + Integer.toHexString(System.identityHashCode(this)) + (freed ? " (freed)" : "");
    }
}
