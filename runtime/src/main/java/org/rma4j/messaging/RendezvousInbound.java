package org.rma4j.messaging;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import org.rma4j.ErrorClass;
import org.rma4j.RmaException;
import org.rma4j.Window;
import org.rma4j.internal.RuntimeAccess;
import org.rma4j.messaging.MessagingTransfers.Inbound;
import org.rma4j.messaging.MessagingTransfers.Unexpected;
import org.rma4j.shm.Align;
import org.rma4j.shm.CrossMemory;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.PeerFailedException;

/**
 * The receive side of the rendezvous protocol of a {@link MessagingEngine} (see {@link Messaging}): matching an
 * announced message, reading its chunks from the sender's staging halves with notified gets (into the matched
 * receive's buffer or a private one), or all of it from the sender's buffer with one kernel copy (a direct
 * rendezvous), and handing an unexpected message, arrived or still arriving, to the receive that takes it. At
 * most one inbound message per sender is in flight ({@code inbound[s]}, or one parked unread). Owned by the
 * engine's thread.
 */
final class RendezvousInbound {
    /** The runtime internals this layer uses (see RuntimeAccess). */
    private static final RuntimeAccess ACCESS = RuntimeAccess.get();
    private static final long SELF_PID = ProcessHandle.current().pid();

    private final Window window;
    private final MessagingLayout layout;
    private final MemorySegment local;
    private final int rank;
    private final MatchQueues queues;
    private final Inbound[] inbound;
    private final Liveness liveness;

    /** A clear-to-send entry (pid, address, bytes: {@link MessagingLayout#CTS_ADDRESS}). */
    private final MemorySegment ctsEntry = MemorySegment.ofArray(new long[3]);
    /** Direct rendezvous messages parked unread (their senders wait for the acknowledgement), in arrival order. */
    private final ArrayDeque<Unexpected> unread = new ArrayDeque<>();

    RendezvousInbound(final Window window, final MessagingLayout layout, final MatchQueues queues,
        final Liveness liveness) {
        this.liveness = liveness;
        this.window = window;
        this.layout = layout;
        this.local = window.segment();
        this.rank = window.rank();
        this.queues = queues;
        this.inbound = new Inbound[layout.ranks()];
    }

    /**
     * A rendezvous message from {@code source}: matches it, then reads its first two chunks. An
     * unmatched one is read into a private buffer, so its sender never waits for a receive to be posted. A direct one
     * (its entry names the sender's process) goes to {@link #readDirectly}.
     */
    void onRendezvous(final int source, final int wireTag) {
        if (inbound[source] != null) {
            throw new IllegalStateException(
                "rank " + rank + " got a second rendezvous from rank " + source + " while one is in flight");
        }
        final long entry = layout.rtsOffset(source);
        final long length = local.get(ValueLayout.JAVA_LONG, entry);
        final long pid = local.get(ValueLayout.JAVA_LONG, entry + MessagingLayout.RTS_PID);
        if (pid != 0) {
            final long address = local.get(ValueLayout.JAVA_LONG, entry + MessagingLayout.RTS_ADDRESS);
            readDirectly(source, wireTag, length, pid, address);
            return;
        }
        final Inbound message = new Inbound(source, wireTag, length, layout.chunks(length));
        inbound[source] = message;
        final MessageRequest request = queues.takePosted(source, wireTag);
        if (request != null) {
            attach(message, request);
        } else {
            final Unexpected parked = new Unexpected(source, wireTag, (int)length,
                MemorySegment.ofArray(new byte[(int)length]), message);
            message.target = parked.data;
            message.parked = parked;
            queues.park(parked);
        }
        pull(message);
        if (message.pulled < message.chunks) {
            pull(message);
        }
    }

    /**
     * A rendezvous message whose sender, a process of this node, left it in its send buffer ({@code pid},
     * {@code address}): a matched one is read at once, with one kernel copy ({@link CrossMemory}) into the
     * receive's buffer (nothing, when it does not fit), and acknowledged, which completes the send; an unmatched one
     * is parked unread, to be read straight into the receive that takes it, or into a private buffer before this
     * rank blocks or at its next step of progress ({@link #readUnread}), so its sender waits for no receive.
     */
    private void readDirectly(final int source, final int wireTag, final long length, final long pid,
        final long address) {
        final MessageRequest request = queues.takePosted(source, wireTag);
        if (request == null) {
            final Unexpected parked = new Unexpected(source, wireTag, (int)length, null, null);
            parked.directPid = pid;
            parked.directAddress = address;
            queues.park(parked);
            unread.addLast(parked);
        } else if (MatchQueues.fits(request, source, wireTag, length)) {
            receiveDirectly(source, wireTag, length, pid, address, request);
        } else {
            readAndAcknowledge(source, length, pid, address, null);
        }
    }

    /**
     * Receives a direct rendezvous message into {@code request}'s buffer, which holds it. Into native memory, for a
     * message of more than two chunks (whose staged rendezvous needs the sender's progress as well), the sender and
     * this rank copy a half each at the same time: a clear-to-send with the buffer's address lets the sender write
     * the first half ({@link CrossMemory#write}) while this rank reads the second; the sender's chunk signal says
     * that its half is there, and then the receive completes and this rank acknowledges ({@link #onChunkSignal}).
     * Otherwise this rank reads all of it and acknowledges.
     */
    private void receiveDirectly(final int source, final int wireTag, final long length, final long pid,
        final long address, final MessageRequest request) {
        final MemorySegment target = request.buffer();
        // NOTE: a message of at most two chunks completes without the sender's further progress, as a staged one.
        if (!target.isNative() || length <= 2 * layout.chunkBytes()) {
            readAndAcknowledge(source, length, pid, address, target);
            request.complete(queues.status(source, wireTag, length));
            return;
        }
        final long half = (target.address() + length / 2 & -Align.CACHE_LINE) - target.address();
        ctsEntry.set(ValueLayout.JAVA_LONG, 0, SELF_PID);
        ctsEntry.set(ValueLayout.JAVA_LONG, MessagingLayout.CTS_ADDRESS, target.address());
        ctsEntry.set(ValueLayout.JAVA_LONG, MessagingLayout.CTS_BYTES, half);
        window.putNotify(ctsEntry, source, layout.ctsOffset(rank), MessagingEngine.CONTROL_TAG);
        final Inbound message = new Inbound(source, wireTag, length, 1);
        message.request = request;
        message.target = target;
        message.split = true;
        inbound[source] = message;
        read(source, pid, address + half, target.asSlice(half, length - half));
    }

    /**
     * A chunk signal from {@code source}: the next chunk of a staged message is there, or the sender has written
     * its half of a direct one ({@link #receiveDirectly}), which completes the receive and is acknowledged.
     */
    void onChunkSignal(final int source) {
        final Inbound message = inboundFrom(source);
        if (!message.split) {
            pull(message);
            return;
        }
        inbound[source] = null;
        acknowledge(source);
        message.request.complete(queues.status(source, message.wireTag, message.length));
    }

    /**
     * Reads every direct rendezvous message parked unread into a private buffer and acknowledges it: their senders
     * wait for that. Called before this rank blocks and at each step of progress.
     *
     * @return whether there was any.
     */
    boolean readUnread() {
        if (unread.isEmpty()) {
            return false;
        }
        while (!unread.isEmpty()) {
            final Unexpected message = unread.peekFirst();
            final MemorySegment data = Arena.ofAuto().allocate(Math.max(1, message.length), Align.CACHE_LINE);
            readAndAcknowledge(message.source, message.length, message.directPid, message.directAddress, data);
            unread.pollFirst();
            message.data = data;
            message.directPid = 0;
        }
        return true;
    }

    /**
     * Reads a direct rendezvous message of {@code length} bytes from its sender's buffer into {@code target} (or
     * not, if null), then acknowledges it with an empty notified put to the sender's staging pair for this rank.
     */
    private void readAndAcknowledge(final int source, final long length, final long pid, final long address,
        final MemorySegment target) {
        if (target != null && length > 0) {
            read(source, pid, address, target.asSlice(0, length));
        }
        acknowledge(source);
    }

    /**
     * Tells {@code source} that its direct rendezvous message has been taken (its send completes): an empty notified
     * put at its staging pair for this rank.
     */
    private void acknowledge(final int source) {
        window.putNotify(MemorySegment.NULL, source, layout.stagingOffset(rank, 0), MessagingEngine.CONTROL_TAG);
    }

    /** Reads {@code into.byteSize()} bytes at {@code address} in {@code source}'s process {@code pid} into it. */
    private void read(final int source, final long pid, final long address, final MemorySegment into) {
        final int error = CrossMemory.read(pid, address, into);
        if (error != 0) {
            throw crossMemoryFailure(error, rank, source, pid, "read", liveness);
        }
    }

    /**
     * @return the exception for a failed read or write of a peer's memory: {@link org.rma4j.RankFailedException} if
     *         the peer is gone (its liveness check, or ESRCH), else {@link RmaException} OTHER with the errno.
     */
    static RuntimeException crossMemoryFailure(final int error, final int rank, final int peer, final long pid,
        final String what, final Liveness liveness) {
        // A peer that died took its memory along: report its death, else what the kernel said.
        final String waited = "Messaging's " + what + " of the memory of rank " + peer;
        try {
            liveness.check();
        } catch (final RuntimeException e) {
            return ACCESS.translate(e, rank, waited);
        }
        if (error == CrossMemory.ESRCH) {
            return ACCESS.translate(new PeerFailedException(peer, "its process " + pid + " is gone"), rank, waited);
        }
        return new RmaException(ErrorClass.OTHER,
            "rank " + rank + " could not " + what + " the memory of rank " + peer + " (process " + pid
                + ") for a long message: process_vm_" + what + "v errno " + error + " (-D"
                + Messaging.DIRECT_READS_PROP_NAME + "=false at the senders stages such messages through shared memory"
                + " instead)");
    }

    /**
     * Reads the next chunk of an inbound rendezvous message from the sender's staging half into its
     * target (nothing, when the message is being discarded); the notified get tells the sender.
     */
    void pull(final Inbound message) {
        final long chunk = message.pulled;
        final long offset = chunk * layout.chunkBytes();
        final long bytes = Math.min(layout.chunkBytes(), message.length - offset);
        final MemorySegment into = message.target == null ? MemorySegment.NULL : message.target.asSlice(offset, bytes);
        window.getNotify(into, message.source, layout.stagingOffset(rank, chunk), MessagingEngine.CONTROL_TAG);
        message.pulled++;
        if (message.pulled == message.chunks) {
            inbound[message.source] = null;
            if (message.request != null) {
                message.request.complete(queues.status(message.source, message.wireTag, message.length));
            }
            if (message.parked != null) {
                message.parked.inbound = null;
            }
        }
    }

    /**
     * Lets {@code request} receive the rest of an inbound rendezvous message (or discards the rest if
     * the message does not fit, failing the request).
     */
    private void attach(final Inbound message, final MessageRequest request) {
        message.parked = null;
        if (MatchQueues.fits(request, message.source, message.wireTag, message.length)) {
            message.request = request;
            message.target = request.buffer();
        } else {
            message.target = null;
        }
    }

    /**
     * A posted receive takes an unexpected message: the part that has arrived is copied from the
     * private buffer; the rest of a rendezvous message still arriving goes straight to the receive.
     */
    void takeUnexpected(final MessageRequest request, final Unexpected message) {
        final Inbound arriving = message.inbound;
        if (arriving != null) {
            final long arrived = Math.min(arriving.pulled * layout.chunkBytes(), message.length);
            attach(arriving, request);
            if (arriving.target != null) {
                message.copyTo(request.buffer(), arrived);
            }
        } else if (message.directPid != 0) {
            unread.remove(message);
            final long pid = message.directPid;
            message.directPid = 0;
            if (MatchQueues.fits(request, message.source, message.wireTag, message.length)) {
                receiveDirectly(message.source, message.wireTag, message.length, pid, message.directAddress, request);
            } else {
                readAndAcknowledge(message.source, message.length, pid, message.directAddress, null);
            }
        } else if (MatchQueues.fits(request, message.source, message.wireTag, message.length)) {
            message.copyTo(request.buffer(), message.length);
            request.complete(queues.status(message.source, message.wireTag, message.length));
        }
    }

    Inbound inboundFrom(final int source) {
        final Inbound message = inbound[source];
        if (message == null) {
            throw new IllegalStateException(
                "rank " + rank + " got a rendezvous chunk from rank " + source + " with no rendezvous in flight");
        }
        return message;
    }
}
