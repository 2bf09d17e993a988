package org.rma4j;

import java.util.ArrayList;
import java.util.List;

/**
 * What one rank of a job has mapped beyond the job's own files: its open windows and the contexts of the
 * communicators it made, released together when the job closes or is abandoned ({@link RmaJob#close()}).
 * Thread-safe: communicators may create windows and communicators in several threads (each list is guarded by
 * itself).
 */
final class JobResources {
    private final List<Window> windows = new ArrayList<>();
    private final List<CommContext> contexts = new ArrayList<>();

    /** Records an open window of this rank. */
    void remember(final Window window) {
        synchronized (windows) {
            windows.add(window);
        }
    }

    /** The window was freed. */
    void forget(final Window window) {
        synchronized (windows) {
            windows.remove(window);
        }
    }

    /** Records a communicator context of this rank, to unmap when the job closes. */
    void remember(final CommContext context) {
        synchronized (contexts) {
            contexts.add(context);
        }
    }

    /** The context's communicator and its users are gone. */
    void forget(final CommContext context) {
        synchronized (contexts) {
            contexts.remove(context);
        }
    }

    /** Unmaps every window still open (without the collective free) and every communicator context. */
    void releaseAll() {
        final List<Window> open;
        synchronized (windows) {
            open = List.copyOf(windows);
            windows.clear();
        }
        for (final Window window : open) {
            window.release();
        }
        final List<CommContext> made;
        synchronized (contexts) {
            made = List.copyOf(contexts);
            contexts.clear();
        }
        for (final CommContext context : made) {
            context.unmap();
        }
    }
}
