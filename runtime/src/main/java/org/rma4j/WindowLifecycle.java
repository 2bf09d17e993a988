package org.rma4j;

import org.rma4j.shm.MappedFile;

/**
 * The end of one window's life at this rank (MPI-3.1 section 11.2.5): the collective free, the close of
 * a try-with-resources block (which abandons the job instead of freeing when the rank is in the middle
 * of an exchange), and the release of the mappings without a barrier when the job closes first.
 * Javadoc of each call: {@link Window}.
 */
final class WindowLifecycle {
    private final WindowState state;
    private final RmaJob job;
    private final MappedFile file;
    private final TargetMemory memory;
    private final WindowTransport transport;
    private final Epochs epochs;
    private final ActiveTarget active;
    private final NotifiedAccess notified;
    /** Whether this rank created the window file (of its node), and removes its name at the end. */
    private final boolean fileCreator;
    /** free and close hand their {@link RmaException} to the window's error handler before it leaves. */
    private final WindowErrors errors;

    WindowLifecycle(final WindowState state, final MappedFile file, final TargetMemory memory,
        final WindowTransport transport, final Epochs epochs, final ActiveTarget active, final NotifiedAccess notified,
        final boolean fileCreator, final WindowErrors errors) {
        this.state = state;
        this.errors = errors;
        this.job = state.job();
        this.file = file;
        this.memory = memory;
        this.transport = transport;
        this.fileCreator = fileCreator;
        this.epochs = epochs;
        this.active = active;
        this.notified = notified;
    }

    /**
     * MPI_WIN_FREE: deletes the window's attributes (their delete callbacks run while the window can still
     * be used), then the collective free. A callback that throws does not stop the free: the peers wait for
     * this rank, so the window is freed and the callback's failure thrown afterwards.
     */
    void free(final Window window, final AttributeCache attributes) {
        try {
            freeCollectively(window, attributes);
        } catch (final RmaException e) {
            throw errors.raise("free", e);
        }
    }

    private void freeCollectively(final Window window, final AttributeCache attributes) {
        state.checkOpen("free");
        epochs.checkFree();
        final RmaException callback = attributes.deleteAll();
        state.context().collective(CollectiveCalls.Kind.FREE, state.number() + 1, active.barrierWait());
        state.markFreed();
        job.resources().forget(window);
        transport.free();
        unmap();
        if (callback != null) {
            throw new RmaException(callback.errorClass(),
                "free of window " + state.number() + " at rank " + state.rank()
                    + ": the window is freed, but an attribute's delete callback failed: " + callback.getMessage(),
                callback);
        }
    }

    void close(final Window window, final AttributeCache attributes) {
        try {
            freeOrAbandon(window, attributes);
        } catch (final RmaException e) {
            throw errors.raise("close", e);
        }
    }

    private void freeOrAbandon(final Window window, final AttributeCache attributes) {
        if (state.isFreed()) {
            return;
        }
        if (job.isClosed()) {
            release();
            return;
        }
        if (state.context().failure() != null) {
            job.abandon(state.context().failure());
            return;
        }
        final String unfinished = unfinishedExchange();
        if (unfinished != null) {
            final RmaException e = new RmaException(ErrorClass.RMA_SYNC,
                "close of window " + state.number() + " at rank " + state.rank() + " in the middle of an exchange ("
                    + unfinished + "): the rank"
                    + " abandons the job instead of freeing the window, so that no peer waits for it");
            job.abandon(e);
            throw e;
        }
        freeCollectively(window, attributes);
    }

    /**
     * @return the open epoch or active notification request that keeps this rank in an exchange, or null.
     */
    private String unfinishedExchange() {
        try {
            epochs.checkFree();
        } catch (final RmaException e) {
            return e.getMessage();
        }
        return notified.activeRequest();
    }

    void release() {
        if (!state.isFreed()) {
            state.markFreed();
            transport.release();
            unmap();
        }
    }

    /**
     * Unmaps the window's memory and file; the file's creator (rank 0, or in a window across nodes the first
     * rank of each node) removes its name (kept while the window lived when it holds the ranks' memory, see
     * {@link SharedAllocator#expose}).
     */
    private void unmap() {
        job.allocator().withdraw(file.segment());
        state.attachedCounters().close();
        memory.close();
        if (fileCreator) {
            file.unlink();
        }
        file.close();
        state.context().release();
    }
}
