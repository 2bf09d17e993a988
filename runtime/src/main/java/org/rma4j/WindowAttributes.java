package org.rma4j;

import java.lang.foreign.MemorySegment;

/**
 * What a {@link Window} tells about itself and keeps for its user at this rank: the predefined window attributes
 * (MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL) and the group (MPI-3.1
 * section 11.2.6), the info hints (11.2.7), the name (6.8), cached attributes (6.7.3) and the error handler
 * (8.3.3, 11.6.1). None of these calls communicates.
 *
 * <p>Implemented by {@link Window} only; this interface holds the contract of these calls, grouped as the standard
 * groups them.
 */
public sealed interface WindowAttributes permits Window {
    // ---------------------------------------------------------------- attributes (section 11.2.6)

    /** @return this rank's memory in the window (MPI_WIN_BASE with MPI_WIN_SIZE bytes). */
    MemorySegment segment();

    /** @return this rank's size in bytes (MPI_WIN_SIZE). */
    long size();

    /** @return this rank's displacement unit (MPI_WIN_DISP_UNIT). */
    int dispUnit();

    /** @return MPI_WIN_CREATE_FLAVOR. */
    WindowFlavor flavor();

    /**
     * MPI_WIN_MODEL: always {@link MemoryModel#UNIFIED}. The machine is cache-coherent, so public and private
     * copies are the same memory and a store is eventually seen by other ranks without further calls (section
     * 11.4). To poll window memory for a value written by another rank, read it with an acquire load (a plain
     * read loop may be hoisted by the JIT).
     */
    MemoryModel model();

    /**
     * MPI_WIN_GET_INFO: a copy of the hints in effect: the predefined keys with their values or defaults, the
     * rma4j keys, and the other keys given at creation or to {@link #setInfo}. MPI-3.1 §11.2.7.
     */
    Info getInfo();

    /**
     * MPI_WIN_SET_INFO: new values for the hints that can change once the window exists: {@code no_locks}
     * (lock calls raise RMA_SYNC while it is true), {@code accumulate_ordering}, {@code accumulate_ops}, and
     * keys rma4j does not know (kept, readable back). {@code same_size}, {@code alloc_shared_noncontig},
     * {@code rma4j_notify_capacity} and {@code rma4j_epoch_checks} are fixed by the creation and ignored,
     * as the standard allows; keys {@code info} does not name keep their values; null changes nothing.
     * Collective in MPI; in rma4j every changeable hint acts at this rank only, so the call does not
     * communicate. MPI-3.1 §11.2.7.
     *
     * @throws RmaException INFO_VALUE for a malformed value (nothing changes), WIN on a freed window.
     */
    void setInfo(Info info);

    /**
     * MPI_WIN_SET_NAME: names the window at this rank (for messages and tools). Local. Longer names are
     * truncated to {@link Window#MAX_OBJECT_NAME} - 1 characters. MPI-3.1 §6.8.
     *
     * @throws RmaException ARG for null, WIN on a freed window.
     */
    void setName(String name);

    /** @return MPI_WIN_GET_NAME: the name given with {@link #setName}, or the empty string (MPI-3.1 §6.8). */
    String getName();

    // ---------------------------------------------------------------- attribute caching (section 6.7.3)

    /**
     * MPI_WIN_SET_ATTR: caches {@code value} on this window at this rank under {@code keyval}. A value
     * already set there is deleted first (its delete function runs); if that throws, nothing changes.
     * MPI-3.1 §6.7.3.
     *
     * @throws RmaException KEYVAL for a null, freed or predefined key, ARG for a null value, OTHER (or what
     *                      it threw) when the delete function of the old value throws.
     */
    <T> void setAttr(Keyval<T> keyval, T value);

    /**
     * MPI_WIN_GET_ATTR: the value cached under {@code keyval}, empty if none (MPI's flag false); for the
     * predefined keys ({@link Keyval#WIN_BASE} ...) the window's attribute. MPI-3.1 §6.7.3, §11.2.6.
     *
     * @throws RmaException KEYVAL for a null or freed key.
     */
    <T> java.util.Optional<T> getAttr(Keyval<T> keyval);

    /**
     * MPI_WIN_DELETE_ATTR: runs the delete function of the value cached under {@code keyval}, then removes
     * it; if the function throws, the value stays and the call throws. MPI-3.1 §6.7.3.
     *
     * @throws RmaException KEYVAL for a null, freed or predefined key, OTHER (or what it threw) when the
     *                      delete function throws.
     */
    void deleteAttr(Keyval<?> keyval);

    // ---------------------------------------------------------------- error handling (sections 8.3.3, 11.6)

    /**
     * MPI_WIN_SET_ERRHANDLER: what this window's calls do with their errors at this rank:
     * {@link Errhandler#ERRORS_RETURN} (the default: throw), {@link Errhandler#ERRORS_ARE_FATAL} (abort the
     * job), or a handler of {@link Window#createErrhandler}. Local. MPI-3.1 §8.3.3, §11.6.1.
     *
     * @throws RmaException ARG for null.
     */
    void setErrhandler(Errhandler errhandler);

    /** @return MPI_WIN_GET_ERRHANDLER: this window's error handler at this rank. MPI-3.1 §8.3.3. */
    Errhandler getErrhandler();

    /** @return the rank of the calling process in the window's group. */
    int rank();

    /** @return the size of the window's group. */
    int ranks();

    /** @return MPI_WIN_GET_GROUP: the job ranks of the window's ranks, in order (its communicator's group). */
    Group group();
}
