package org.rma4j;

import java.lang.foreign.MemorySegment;

/**
 * A window: memory that every rank of a job exposes to the others' one-sided operations
 * (MPI_Win, MPI-3.1 chapter 11).
 *
 * <p>The contract of each call is in the interface that groups it as the standard does:
 * {@link WindowAttributes} (attributes, info, name, error handler, the memory model), {@link WindowCommunication}
 * (put, get, accumulate, atomics: section 11.3), {@link WindowSynchronization} (fence, PSCW, lock, flush: section
 * 11.5, and when a call completes), {@link WindowNotifiedAccess} and {@link WindowNotifyCounters}. This class
 * delegates each call to a package-private part: {@code TargetAccess} (checks and data movement),
 * {@code PassiveTarget} (locks, flush), {@code ActiveTarget} (fence, PSCW), {@code NotifiedAccess},
 * {@code NotifyCounters}, {@code WindowLifecycle} (free, close), {@code AttributeCache}, over the window's
 * {@code WindowTransport}. The array and scalar overloads of put, get, putNotify, fetch-and-op and compare-and-swap,
 * and the notification counters' calls, are default methods of their interface that reach the same parts.
 *
 * <h2>Threads</h2>
 * A window handle belongs to its rank. Synchronization calls on one window must not run
 * concurrently in two threads of the rank; communication calls inside an open epoch may.
 */
public final class Window
    implements
        WindowAttributes,
        WindowCommunication,
        WindowSynchronization,
        WindowNotifiedAccess,
        WindowNotifyCounters,
        AutoCloseable {
    /**
     * MPI_MAX_OBJECT_NAME: a window name ({@link #setName}) keeps at most this many characters less one, as
     * in C, where the terminating null takes the last.
     */
    public static final int MAX_OBJECT_NAME = 128;

    private final WindowState state;
    private final TargetAccess access;
    private final PassiveTarget passive;
    private final ActiveTarget active;
    private final NotifiedAccess notified;
    private final NotifyCounters notifyCounters;
    private final WindowLifecycle lifecycle;
    private final AttributeCache attributes;
    private final WindowErrors errors;

    /** Made by {@link WindowCreation}, which wires the parts. */
    Window(final WindowState state, final Info info, final WindowErrors errors, final TargetAccess access,
        final PassiveTarget passive, final ActiveTarget active, final NotifiedAccess notified,
        final NotifyCounters notifyCounters, final WindowLifecycle lifecycle) {
        this.state = state;
        this.access = access;
        this.passive = passive;
        this.active = active;
        this.notified = notified;
        this.notifyCounters = notifyCounters;
        this.lifecycle = lifecycle;
        this.attributes = new AttributeCache(this, state, info, passive::applyInfo, errors);
        this.errors = errors;
        errors.bind(this);
    }

    // ------------------------------------------------ WindowAttributes (sections 6.7.3, 6.8, 8.3.3, 11.2.6-7)

    @Override
    public MemorySegment segment() {
        return access.segment();
    }

    @Override
    public long size() {
        return state.sizes()[state.rank()];
    }

    @Override
    public int dispUnit() {
        return access.dispUnit(state.rank());
    }

    @Override
    public WindowFlavor flavor() {
        return access.flavor();
    }

    @Override
    public MemoryModel model() {
        return MemoryModel.UNIFIED;
    }

    @Override
    public Info getInfo() {
        return attributes.getInfo();
    }

    @Override
    public void setInfo(final Info info) {
        attributes.setInfo(info);
    }

    @Override
    public void setName(final String name) {
        attributes.setName(name);
    }

    @Override
    public String getName() {
        return attributes.getName();
    }

    /**
     * MPI_WIN_CREATE_KEYVAL: a new key for {@link #setAttr}. The copy function is never called (MPI has no
     * window duplication); the delete function runs when a value leaves a window: at {@link #deleteAttr},
     * when {@link #setAttr} replaces it, and at {@link #free()}, which deletes a window's attributes in the
     * reverse order they were set. MPI-3.1 §6.7.3.
     *
     * @throws RmaException ARG for a null function (use {@link Keyval#nullCopyFn()}, {@link Keyval#nullDeleteFn()}).
     */
    public static <T> Keyval<T> createKeyval(final Keyval.CopyFunction<T> copyFn,
        final Keyval.DeleteFunction<T> deleteFn, final Object extraState) {
        return Keyval.create(copyFn, deleteFn, extraState);
    }

    /**
     * MPI_WIN_FREE_KEYVAL: the key can no longer be used to set, get or delete (KEYVAL); values already set
     * under it stay until deleted or their window is freed, when its delete function runs. MPI-3.1 §6.7.3.
     *
     * @throws RmaException KEYVAL for a predefined key.
     */
    public static void freeKeyval(final Keyval<?> keyval) {
        keyval.free();
    }

    @Override
    public <T> void setAttr(final Keyval<T> keyval, final T value) {
        attributes.set(keyval, value);
    }

    @Override
    public <T> java.util.Optional<T> getAttr(final Keyval<T> keyval) {
        return attributes.get(keyval);
    }

    @Override
    public void deleteAttr(final Keyval<?> keyval) {
        attributes.delete(keyval);
    }

    /**
     * MPI_WIN_CREATE_ERRHANDLER: a handler that calls {@code function} with the window and the error before
     * the failed call throws it (see {@link Errhandler}). MPI-3.1 §8.3.3.
     *
     * @throws RmaException ARG for null.
     */
    public static Errhandler createErrhandler(final Errhandler.Function function) {
        return Errhandler.create(function);
    }

    @Override
    public void setErrhandler(final Errhandler errhandler) {
        errors.handler(errhandler);
    }

    @Override
    public Errhandler getErrhandler() {
        return errors.handler();
    }

    @Override
    public int rank() {
        return state.rank();
    }

    @Override
    public int ranks() {
        return state.sizes().length;
    }

    @Override
    public Group group() {
        return state.context().group();
    }

    /**
     * The part of a shared window that belongs to {@code target}, for direct loads and stores
     * (MPI_WIN_SHARED_QUERY). {@link Rma#PROC_NULL} selects the lowest rank with a non-zero size. MPI-3.1 §11.2.3.
     *
     * @throws RmaException RMA_FLAVOR if the window is not of flavor SHARED, RANK for a bad rank.
     */
    public SharedRegion sharedQuery(final int target) {
        return access.sharedQuery(target);
    }

    // ---------------------------------------------------------------- dynamic windows (section 11.2.4)

    /**
     * MPI_WIN_ATTACH: exposes {@code memory} in this dynamic window. Local (not collective). Other ranks
     * reach it with target displacements that are addresses in this process ({@link Rma#address}),
     * which this rank communicates to them (with a put, say). MPI-3.1 §11.2.4.
     *
     * @throws RmaException RMA_FLAVOR if the window is not dynamic; RMA_ATTACH if the memory is not in a
     *                      shared mapping of the job ({@link RmaJob#allocMem} memory, or an allocate or
     *                      allocateShared window's), or overlaps an attached region; NO_MEM if the attach
     *                      table cannot grow. Any number of regions may be attached.
     */
    public void attach(final MemorySegment memory) {
        access.attach(memory);
    }

    /**
     * MPI_WIN_DETACH: withdraws the region attached at {@code memory}'s address. Local. MPI-3.1 §11.2.4.
     *
     * @throws RmaException RMA_FLAVOR if the window is not dynamic, RMA_ATTACH if no region starts there.
     */
    public void detach(final MemorySegment memory) {
        access.detach(memory);
    }

    // ------------------------------------------------ WindowCommunication (section 11.3)

    @Override
    public void put(final MemorySegment origin, final int target, final long targetDisp) {
        access.put(origin, target, targetDisp);
    }

    @Override
    public void get(final MemorySegment destination, final int target, final long targetDisp) {
        access.get(destination, target, targetDisp);
    }

    @Override
    public void put(final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType) {
        access.put(origin, originCount, originType, target, targetDisp, targetCount, targetType);
    }

    @Override
    public void get(final MemorySegment destination, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType) {
        access.get(destination, originCount, originType, target, targetDisp, targetCount, targetType);
    }

    @Override
    public void accumulate(final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        access.accumulate(origin, originCount, originType, target, targetDisp, targetCount, targetType, op);
    }

    @Override
    public void getAccumulate(final MemorySegment origin, final long originCount, final Datatype originType,
        final MemorySegment result, final long resultCount, final Datatype resultType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        access.getAccumulate(origin, originCount, originType, result, resultCount, resultType, target, targetDisp,
            targetCount, targetType, op);
    }

    @Override
    public void fetchAndOp(final MemorySegment origin, final MemorySegment result, final Datatype type,
        final int target, final long targetDisp, final Op op) {
        access.fetchAndOp(origin, result, type, target, targetDisp, op);
    }

    @Override
    public void compareAndSwap(final MemorySegment origin, final MemorySegment compare, final MemorySegment result,
        final Datatype type, final int target, final long targetDisp) {
        access.compareAndSwap(origin, compare, result, type, target, targetDisp);
    }

    @Override
    public RmaRequest rput(final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType) {
        return access.rput(origin, originCount, originType, target, targetDisp, targetCount, targetType);
    }

    @Override
    public RmaRequest rget(final MemorySegment destination, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType) {
        return access.rget(destination, originCount, originType, target, targetDisp, targetCount, targetType);
    }

    @Override
    public RmaRequest raccumulate(final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        return access.raccumulate(origin, originCount, originType, target, targetDisp, targetCount, targetType, op);
    }

    @Override
    public RmaRequest rgetAccumulate(final MemorySegment origin, final long originCount, final Datatype originType,
        final MemorySegment result, final long resultCount, final Datatype resultType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        return access.rgetAccumulate(origin, originCount, originType, result, resultCount, resultType, target,
            targetDisp, targetCount, targetType, op);
    }

    // ------------------------------------------------ WindowNotifiedAccess (Notified Access, section III)

    @Override
    public void putNotify(final MemorySegment origin, final int target, final long targetDisp, final int tag) {
        notified.putNotify(origin, target, targetDisp, tag);
    }

    @Override
    public void putNotify(final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final int tag) {
        notified.putNotify(origin, originCount, originType, target, targetDisp, targetCount, targetType, tag);
    }

    @Override
    public void getNotify(final MemorySegment destination, final int target, final long targetDisp, final int tag) {
        notified.getNotify(destination, target, targetDisp, tag);
    }

    @Override
    public void accumulateNotify(final MemorySegment origin, final long count, final Datatype type, final int target,
        final long targetDisp, final Op op, final int tag) {
        notified.accumulateNotify(origin, count, type, target, targetDisp, op, tag);
    }

    @Override
    public long fetchAndOpNotify(final long operand, final int target, final long targetDisp, final Op op,
        final int tag) {
        return notified.fetchAndOpNotify(operand, target, targetDisp, op, tag);
    }

    @Override
    public void getAccumulateNotify(final MemorySegment origin, final long originCount, final Datatype originType,
        final MemorySegment result, final long resultCount, final Datatype resultType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op, final int tag) {
        notified.getAccumulateNotify(origin, originCount, originType, result, resultCount, resultType, target,
            targetDisp, targetCount, targetType, op, tag);
    }

    @Override
    public long compareAndSwapNotify(final long compare, final long value, final int target, final long targetDisp,
        final int tag) {
        return notified.compareAndSwapNotify(compare, value, target, targetDisp, tag);
    }

    @Override
    public RmaRequest rputNotify(final MemorySegment origin, final int target, final long targetDisp, final int tag) {
        return notified.rputNotify(origin, target, targetDisp, tag);
    }

    @Override
    public RmaRequest rgetNotify(final MemorySegment destination, final int target, final long targetDisp,
        final int tag) {
        return notified.rgetNotify(destination, target, targetDisp, tag);
    }

    @Override
    public RmaRequest raccumulateNotify(final MemorySegment origin, final long count, final Datatype type,
        final int target, final long targetDisp, final Op op, final int tag) {
        return notified.raccumulateNotify(origin, count, type, target, targetDisp, op, tag);
    }

    @Override
    public RmaRequest rgetAccumulateNotify(final MemorySegment origin, final long originCount,
        final Datatype originType, final MemorySegment result, final long resultCount, final Datatype resultType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final Op op,
        final int tag) {
        return notified.rgetAccumulateNotify(origin, originCount, originType, result, resultCount, resultType, target,
            targetDisp, targetCount, targetType, op, tag);
    }

    @Override
    public java.util.Optional<NotifyRequest.Status> notifyIprobe(final int source, final int tag) {
        return notified.notifyIprobe(source, tag);
    }

    @Override
    public NotifyRequest.Status notifyProbe(final int source, final int tag) {
        return notified.notifyProbe(source, tag);
    }

    @Override
    public NotifyRequest notifyInit(final int source, final int tag, final int expectedCount) {
        return notified.notifyInit(source, tag, expectedCount);
    }

    @Override
    public int unexpectedNotifications() {
        return errors.callInt("unexpectedNotifications", () -> notified.unexpectedNotifications());
    }

    // ------------------------------------------------ WindowNotifyCounters (MPI Forum issue 59)

    // ------------------------------------------------ WindowSynchronization (section 11.5)

    @Override
    public void fence(final int assertions) {
        active.fence(assertions);
    }

    @Override
    public void post(final Group group, final int assertions) {
        active.post(group, assertions);
    }

    @Override
    public void start(final Group group, final int assertions) {
        active.start(group, assertions);
    }

    @Override
    public void complete() {
        active.complete();
    }

    @Override
    public void await() {
        active.await();
    }

    @Override
    public boolean test() {
        return active.test();
    }

    @Override
    public void lock(final LockType lockType, final int target, final int assertions) {
        passive.lock(lockType, target, assertions);
    }

    @Override
    public void unlock(final int target) {
        passive.unlock(target);
    }

    @Override
    public void lockAll(final int assertions) {
        passive.lockAll(assertions);
    }

    @Override
    public void unlockAll() {
        passive.unlockAll();
    }

    @Override
    public void flush(final int target) {
        passive.flush(target);
    }

    @Override
    public void flushAll() {
        passive.flushAll();
    }

    @Override
    public void flushLocal(final int target) {
        passive.flushLocal(target);
    }

    @Override
    public void flushLocalAll() {
        passive.flushLocalAll();
    }

    @Override
    public void sync() {
        passive.sync();
    }

    // ---------------------------------------------------------------- destruction (section 11.2.5)

    /**
     * MPI_WIN_FREE: collective; waits for every rank, then unmaps the window. Afterwards every call on
     * it raises WIN and segments obtained from it are no longer accessible.
     *
     * @throws RmaException RMA_SYNC while this rank holds a lock or lock_all, or a start or post epoch is
     *                      open (nothing changes); OTHER if the ranks' collective calls do not match or
     *                      an earlier call of this rank failed.
     * @throws RankFailedException if a rank fails while this one waits.
     */
    public void free() {
        lifecycle.free(this, attributes);
    }

    /**
     * Frees the window ({@link #free()}) if it is not freed yet, unless this rank cannot take part in a
     * collective call any more: then it abandons the job instead (the rank is marked failed, so peers'
     * blocking calls throw {@link RankFailedException} naming it, see {@link RmaJob}). That
     * is the case after a failed call of this rank, and when the window is closed in the middle of an
     * exchange, as when an exception escapes a {@code try}-with-resources block: inside a lock, lock_all,
     * start or post epoch, or with a notification request of the window active.
     *
     * @throws RmaException RMA_SYNC when it abandoned the job because of an open epoch or active request,
     *                      naming it; whatever {@link #free()} throws.
     */
    @Override
    public void close() {
        lifecycle.close(this, attributes);
    }

    /** @return whether {@link #free()} was called. */
    public boolean isFreed() {
        return state.isFreed();
    }

    /** Unmaps without the collective barrier, when the job closes with the window still open. */
    void release() {
        lifecycle.release();
    }

    /**
     * The counters of this rank's use of this window (MPI_T performance variables): operations and bytes
     * per target, blocking calls and their time. See {@link WindowStatistics}.
     *
     * @return a snapshot.
     * @throws RmaException OTHER in a process started with {@code -Drma4j.statistics=false}
     *                      ({@link WindowStatistics#ENABLED_PROP_NAME}).
     */
    public WindowStatistics statistics() {
        return state.counters().snapshot();
    }

    /** Messaging's credit words: {@code NotifiedAccess#putNotifyIfRoom}. */
    boolean putNotifyIfRoom(final MemorySegment origin, final int target, final long targetDisp, final int tag) {
        return notified.putNotifyIfRoom(origin, target, targetDisp, tag);
    }

    /** Messaging's short messages: {@code NotifiedAccess#putNotifyInlineOnly}. */
    boolean putNotifyInlineOnly(final MemorySegment origin, final int target, final long targetDisp, final int tag) {
        return notified.putNotifyInlineOnly(origin, target, targetDisp, tag);
    }

    /** @return the window's notification endpoint. */
    Notifications notifications() {
        return notified.notifications();
    }

    /** @return the window's notification counters. */
    NotifyCounters notifyCounters() {
        return notifyCounters;
    }

    /** @return the window's target access (the array and scalar overloads of {@link WindowCommunication}). */
    TargetAccess access() {
        return access;
    }

    /** @return the window's notified access (the array overloads of {@link WindowNotifiedAccess}). */
    NotifiedAccess notified() {
        return notified;
    }

    /** @return the job the window belongs to. */
    RmaJob jobOf() {
        return state.job();
    }

    /** @return the collective machinery of the window's communicator. */
    CommContext context() {
        return state.context();
    }

    @Override
    public String toString() {
        return "Window{" + flavor() + ", rank=" + rank() + "/" + ranks() + ", size=" + size() + ", dispUnit="
            + dispUnit() + (state.isFreed() ? ", freed" : "") + '}';
    }

}
