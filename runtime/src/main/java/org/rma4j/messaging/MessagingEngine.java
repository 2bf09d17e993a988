package org.rma4j.messaging;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.rma4j.ErrorClass;
import org.rma4j.NotifyRequest;
import org.rma4j.RankFailedException;
import org.rma4j.Rma;
import org.rma4j.RmaException;
import org.rma4j.RmaTimeoutException;
import org.rma4j.Window;
import org.rma4j.internal.ArrivalBatch;
import org.rma4j.internal.InlineWords;
import org.rma4j.internal.RuntimeAccess;
import org.rma4j.messaging.MessagingTransfers.Outbound;
import org.rma4j.messaging.MessagingTransfers.Unexpected;
import org.rma4j.shm.CrossMemory;
import org.rma4j.shm.Liveness;

/**
 * The protocol engine of {@link Messaging} (see its class comment for the protocol): matching of
 * receives to arrivals, eager sends with credits, the chunked rendezvous, and progress. One per
 * Messaging object; not thread-safe (the object's one thread calls it).
 */
final class MessagingEngine {
    /** The runtime internals this layer uses (see RuntimeAccess). */
    private static final RuntimeAccess ACCESS = RuntimeAccess.get();

    /** Context bits of the tags of user messages. */
    static final int USER_CONTEXT = 0;
    /** Context bit of the tags of the collectives' messages: user receives never match them. */
    static final int COLLECTIVE_CONTEXT = 1 << 30;
    /** Largest user tag (MPI_TAG_UB); the bits above are the context. */
    static final int TAG_UB = COLLECTIVE_CONTEXT - 1;
    /** Tag of credit, chunk and acknowledgement notifications: they are told apart by displacement. */
    static final int CONTROL_TAG = 0;
    /** Arrivals taken from the endpoint per batch. */
    private static final int ARRIVAL_BATCH = 256;
    /** Batches one step of progress takes at most ({@link #handleArrivals}): a default lane's worth. */
    private static final int ARRIVAL_BATCHES = Messaging.NOTIFY_CAPACITY_DEFAULT / ARRIVAL_BATCH;
    /** The least capacity of a reusable unexpected-message buffer. */
    private static final int SPARE_MIN_BYTES = 64;
    /**
     * Reusable unexpected-message buffers kept at most (the rest go to the collector): as many as one step of
     * progress can make unexpected, so a consumer behind its producers allocates none.
     */
    private static final int MAX_SPARES = ARRIVAL_BATCH * ARRIVAL_BATCHES;
    /**
     * A receiver returns a sender's credit once this fraction of the sender's ring is owed (or when the sender
     * asks): often enough that a streaming sender rarely runs out and asks, rarely enough that credit costs little.
     */
    private static final long CREDIT_PARTS = 4;

    /** Test hook: the engine whose next notified access throws (once), or null. */
    static volatile MessagingEngine failNextTransfer;

    /*
     * Invariants (at every return to the caller):
     * - consumed[s] is the end (in bytes since creation, wrap padding included) of the last payload of
     *   s's ring that this rank has copied out; after progress() returns, before waitUntil sleeps and when it
     *   returns, consumed[s] - reported[s] < ring / 4, and reported[s] == consumed[s] if s asked for credit
     *   (an empty notification at its credit word here), so a rank never blocks while a sender that waits
     *   for room is owed credit.
     * - No direct rendezvous message is unread after progress() returns or before waitUntil sleeps (its
     *   sender waits for its acknowledgement); a receive that takes one reads it into its own buffer, or, split
     *   (inbound[s] with split set), reads the second half and waits for the sender's chunk signal for the first,
     *   which the sender writes once it has drained the clear-to-send.
     * - A sender whose ring at d lacks room asks d for credit once (creditAsked[d]) and asks again only
     *   after a send to d found room; d's answer covers every payload written before the question.
     * - This rank never writes a payload over ring bytes at d whose earlier payload d has not copied
     *   out: the credit word d covers every payload written one lap before the new one's bytes (wrap
     *   padding holds no payload and needs no credit).
     * - At most one rendezvous per (sender, receiver) pair is in flight: outbound[d] at the sender,
     *   inbound[s] at the receiver; its chunks alternate between the two staging halves, and the
     *   sender refills a half only after the acknowledgement of the chunk that was in it.
     * - sendQueue[d] holds, in call order, the sends to d whose first notification is not out yet;
     *   only its head may go out, so messages to one destination leave in call order.
     * - posted holds pending receives in call order, unexpected the unmatched arrivals in arrival
     *   order; an arrival never sits in unexpected while a posted receive matches it.
     * Non-invariants: the credit word d may lag behind d's consumed bytes (the credit notification is
     * in flight); an unexpected rendezvous message may still be arriving (its inbound is not null).
     * Where things take effect: a send when its data has left its buffer (eager: the notified put;
     * rendezvous: staging of its last chunk), a receive when its last byte has been copied into it.
     * Engine state (reserved ring bytes, the send queue, staged chunks, the rendezvous in flight,
     * reported credit) changes only after the notified access that publishes it returned: a notified
     * access that throws (a dead peer, a wait timeout on a full ring) leaves the state as before it.
     */

    private final Window window;
    private final MessagingLayout layout;
    private final MemorySegment local;
    private final int rank;
    /** The request {@link #recvWaiting} reuses, or null while one is in use or after one threw. */
    private MessageRequest blockingRecv;
    /** Arrivals taken from the endpoint in one step (see RuntimeAccess#drainArrivals). */
    private final ArrivalBatch batch = new ArrivalBatch(ARRIVAL_BATCH);
    private final MemorySegment word = MemorySegment.ofArray(new long[1]);
    /** A rendezvous announcement's entry (length, pid, address: {@link MessagingLayout#RTS_PID}). */
    private final MemorySegment rtsEntry = MemorySegment.ofArray(new long[3]);
    /**
     * This process's pid if its rendezvous messages from native buffers are read directly by receivers on its node
     * ({@link CrossMemory}, unless {@link Messaging#DIRECT_READS_PROP_NAME} is false), else 0.
     */
    private final long directReadPid;
    private boolean closed;

    private final MatchQueues queues = new MatchQueues();
    /** Buffers of unexpected eager messages already received, for the next ones. */
    private final ArrayDeque<Unexpected> spares = new ArrayDeque<>();
    private final RingCredit credit;
    private final RingCredit.Report creditReport = this::putCredit;
    private final RendezvousInbound rendezvous;

    private final long[] reserved;
    /** Whether this rank asked d for credit since its last eager send to d found room. */
    private final boolean[] creditAsked;
    private final ArrayDeque<MessageRequest>[] sendQueue;
    private final Outbound[] outbound;
    private int queuedSends;
    private int activeRendezvous;
    private final Liveness liveness;
    private final boolean[] closing;
    /** The request {@link #await} waits for, or null; and that wait, made once. */
    private MessageRequest awaited;
    private final BooleanSupplier awaitedComplete = () -> awaited.isComplete();
    private final Runnable waitForAwaited = () -> waitUntil(awaitedComplete);
    private RuntimeException failure;

    @SuppressWarnings("unchecked")
    MessagingEngine(final Window window, final MessagingLayout layout, final Liveness liveness) {
        this.liveness = liveness;
        this.closing = new boolean[layout.ranks()];
        this.window = window;
        this.layout = layout;
        this.rendezvous = new RendezvousInbound(window, layout, queues, liveness);
        this.directReadPid = CrossMemory.isAvailable()
            && Boolean.parseBoolean(System.getProperty(Messaging.DIRECT_READS_PROP_NAME, "true"))
                ? ProcessHandle.current().pid()
                : 0;
        this.local = window.segment();
        this.rank = window.rank();
        final int ranks = layout.ranks();
        this.credit = new RingCredit(ranks, layout.ringBytes());
        this.reserved = new long[ranks];
        this.creditAsked = new boolean[ranks];
        this.sendQueue = new ArrayDeque[ranks];
        for (int d = 0; d < ranks; d++) {
            sendQueue[d] = new ArrayDeque<>();
        }
        this.outbound = new Outbound[ranks];
    }

    // ---------------------------------------------------------------- calls

    /**
     * Starts a send of {@code buffer} to {@code dest} (a rank, checked by the caller).
     */
    MessageRequest isend(final MemorySegment buffer, final int dest, final int context, final int tag) {
        final MessageRequest request = MessageRequest.send(this, buffer, dest, context, tag);
        // The usual case: nothing queued to dest and room in the ring; else the request queues behind the others.
        if (sendQueue[dest].isEmpty() && buffer.byteSize() <= layout.bounceBytes() && sendEager(request, dest)) {
            return request;
        }
        sendQueue[dest].addLast(request);
        queuedSends++;
        try {
            pump(dest);
        } catch (final RuntimeException e) {
            // NOTE: the call throws, so the request must not go out later: a retried isend would deliver twice.
            if (sendQueue[dest].peekLast() == request) {
                sendQueue[dest].pollLast();
                queuedSends--;
            }
            throw e;
        }
        return request;
    }

    /**
     * Posts a receive: takes the oldest matching unexpected message, or waits in the posted queue.
     */
    MessageRequest irecv(final MemorySegment buffer, final int source, final int context, final int tag) {
        return post(MessageRequest.recv(this, buffer, source, context, tag));
    }

    /**
     * MPI_RECV that has to wait: {@link #irecv} and the request's await, with a request of this engine's that each
     * blocking receive reuses (the program never sees it): a receive per message allocates nothing. A receive that
     * throws leaves its request behind (it may still be posted) and the next one makes a new one.
     */
    MessageStatus recvWaiting(final MemorySegment buffer, final int source, final int context, final int tag) {
        MessageRequest request = blockingRecv;
        if (request == null) {
            request = MessageRequest.recv(this, buffer, source, context, tag);
        } else {
            blockingRecv = null;
            request.reuse(buffer, source, context, tag);
        }
        final MessageStatus status = post(request).await();
        blockingRecv = request;
        return status;
    }

    /**
     * Posts a receive request: takes the oldest matching unexpected message, or waits in the posted queue.
     */
    private MessageRequest post(final MessageRequest request) {
        final int source = request.peer();
        final int context = request.context();
        final Unexpected message = queues.takeUnexpected(request);
        if (message != null) {
            rendezvous.takeUnexpected(request, message);
            recycle(message);
            return request;
        }
        if (context == USER_CONTEXT && source != Rma.ANY_SOURCE && closing[source]) {
            request.failEndingWaits(ErrorClass.OTHER, neverMatches(request, source));
            return request;
        }
        queues.post(request);
        return request;
    }

    /**
     * MPI_RECV's common case: the oldest message that matches has arrived whole and fits {@code buffer}. Copies it
     * there and returns its status, as {@link #irecv} and the request's completion would, without a request.
     *
     * @return null if there is no such message (nothing was taken: the caller posts a receive, which finds the same
     *         message or a later one, in MPI's order).
     */
    MessageStatus recvNow(final MemorySegment buffer, final int source, final int context, final int tag) {
        // NOTE: a message longer than the buffer stays queued: the request path reports the truncation (COUNT).
        final Unexpected message = queues.takeUnexpected(source, context, tag, buffer.byteSize());
        if (message == null) {
            return null;
        }
        message.copyTo(buffer, message.length);
        final MessageStatus status = queues.status(message.source, message.wireTag, message.length);
        recycle(message);
        return status;
    }

    /**
     * @return a reusable buffer for an unexpected eager message of {@code length} bytes: a spare one that holds
     *         it, or a new one (of at least {@link #SPARE_MIN_BYTES}).
     */
    private Unexpected spareFor(final int length) {
        final Unexpected spare = spares.pollLast();
        if (spare != null && spare.holds(length)) {
            return spare;
        }
        return Unexpected.spare(Math.max(length, SPARE_MIN_BYTES));
    }

    /**
     * Keeps a taken unexpected message's buffer for the next arrival, if it is an eager message's and fewer than
     * {@link #MAX_SPARES} are kept.
     */
    private void recycle(final Unexpected message) {
        if (message.reusable && spares.size() < MAX_SPARES) {
            spares.addLast(message);
        }
    }

    /**
     * Handles every notification that has arrived, then returns the credit due (see {@link RingCredit}). Never
     * blocks for an arrival (it may wait for room in a peer's notification lane, draining its own meanwhile).
     */
    void progress() {
        handleArrivals();
        rendezvous.readUnread();
        returnCredit();
    }

    /**
     * Takes the notifications that have arrived, one batch at a time, at most {@link #ARRIVAL_BATCHES} batches, and
     * handles each outside the endpoint's guard (handling makes notified accesses). The bound keeps one call from
     * draining for ever behind producers that keep pace (a drain gives their lanes room at once), which would move
     * their whole stream into the unexpected queue.
     */
    private void handleArrivals() {
        int taken;
        int batches = 0;
        do {
            taken = ACCESS.drainArrivals(window, batch);
            dispatchBatch(taken);
        } while (taken == batch.capacity() && ++batches < ARRIVAL_BATCHES);
    }

    /** Handles the first {@code taken} arrivals of {@link #batch}. */
    private void dispatchBatch(final int taken) {
        for (int i = 0; i < taken; i++) {
            dispatch(batch.source[i], batch.tag[i], batch.displacement[i], batch.length[i], i);
        }
    }

    /**
     * Makes progress until {@code done}, sleeping on this rank's notification lanes whenever nothing is left to
     * do: everything this rank waits for (credit, acknowledgements, messages) arrives there. Credit is returned
     * in batches (once a quarter of a sender's ring is owed) and to every sender that asked for it
     * ({@link RingCredit#returnOwed}).
     */
    void waitUntil(final BooleanSupplier done) {
        try {
            handleArrivals();
            while (true) {
                if (done.getAsBoolean()) {
                    returnCredit();
                    return;
                }
                // NOTE: never block owing credit a sender asked for: it waits for it. Returning it may itself wait
                // for room, draining this rank's lanes meanwhile, so look at the arrivals again before sleeping.
                if (returnCredit()) {
                    handleArrivals();
                    continue;
                }
                // NOTE: nor with a direct rendezvous message unread: its sender waits for it to be read. Reading
                // acknowledges it, which may wait for room as well.
                if (rendezvous.readUnread()) {
                    handleArrivals();
                    continue;
                }
                // NOTE: the wait takes what it found (one batch); a full batch may have more behind it.
                final int taken = ACCESS.awaitArrivals(window, batch);
                dispatchBatch(taken);
                if (taken == batch.capacity()) {
                    handleArrivals();
                }
            }
        } catch (final RankFailedException | RmaTimeoutException e) {
            throw failed(e);
        }
    }

    /**
     * MPI_WAIT of {@code request} (of this engine, not complete): one round of progress, and if that did not
     * complete it, {@link #waitUntil} its completion, published as this rank's wait state. A request that the
     * first round completes was never waited for: nothing is published, nothing allocated.
     */
    void await(final MessageRequest request) {
        try {
            handleArrivals();
            if (request.isComplete()) {
                returnCredit();
                return;
            }
        } catch (final RankFailedException | RmaTimeoutException e) {
            throw failed(e);
        }
        final MessageRequest outer = awaited;
        awaited = request;
        try {
            ACCESS.messagingWait(window, request.isSend(), request.peer(), request.tag(), waitForAwaited);
        } finally {
            awaited = outer;
        }
    }

    /**
     * @return {@code e} (a peer failed, or a wait timed out) recorded by {@link #fail}, a timeout with what this
     *         engine was doing.
     */
    private RuntimeException failed(final RuntimeException e) {
        if (e instanceof RmaTimeoutException timeout) {
            return fail(new RmaTimeoutException("progress of rank " + rank + "'s Messaging object ("
                + queues.postedCount() + " receive(s) posted, " + queuedSends + " send(s) queued, " + activeRendezvous
                + " rendezvous in flight; " + timeout.waitedFor() + ")", timeout.waitedNs(), timeout));
        }
        return fail(e);
    }

    /**
     * Makes progress on several engines (of different Messaging objects of this thread) until
     * {@code done}, waiting through the window's wait strategy (liveness of every engine's peers, the
     * job's timeout) while nothing happens.
     */
    static void waitUntil(final List<MessagingEngine> engines, final BooleanSupplier done) {
        // NOTE: nobody sleeps on one ring here (the engines' rings are in different windows): the one waiting
        // mechanism's polled wait spins, then parks briefly, and checks every engine's peers on its period.
        final int rank = engines.get(0).rank;
        final String what = "progress of " + engines.size() + " Messaging objects";
        try {
            ACCESS.waitStrategy(engines.get(0).window).awaitPolled(() -> {
                for (final MessagingEngine engine : engines) {
                    engine.progress();
                }
                return done.getAsBoolean();
            }, () -> {
                for (final MessagingEngine engine : engines) {
                    try {
                        engine.liveness.check();
                    } catch (final RuntimeException e) {
                        throw engine.fail(ACCESS.translate(e, rank, what));
                    }
                }
            }, what);
        } catch (final RuntimeException e) {
            throw ACCESS.translate(e, rank, what);
        }
    }

    /**
     * @return whether every send of this rank has finished, rendezvous acknowledgements included.
     */
    boolean sendsFinished() {
        return queuedSends == 0 && activeRendezvous == 0;
    }

    /**
     * Ends the engine: pending receives fail, unmatched arrivals are dropped.
     */
    void close() {
        closed = true;
        queues.clear(request -> request.fail(ErrorClass.OTHER,
            "the Messaging object of rank " + rank + " was closed before " + request + " matched a message"));
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * Records that this engine is out of step with its peers (a peer failed, a wait timed out, a
     * collective did not match): its collective calls throw from now on and closing abandons the job.
     *
     * @return {@code e}, for {@code throw fail(e)}.
     */
    RuntimeException fail(final RuntimeException e) {
        if (failure == null) {
            failure = e;
        }
        ACCESS.recordFailure(ACCESS.jobOf(window), e);
        return e;
    }

    /**
     * @return the first failure recorded by {@link #fail}, or null.
     */
    RuntimeException failure() {
        return failure;
    }

    /**
     * @return whether {@code source} has announced that it closes its Messaging object.
     */
    boolean isClosing(final int source) {
        return closing[source];
    }

    void checkOpen(final String call) {
        if (closed) {
            throw new RmaException(ErrorClass.OTHER, call + " on a closed Messaging object (rank " + rank + ")");
        }
    }

    // ---------------------------------------------------------------- sending

    /**
     * Sends what can go to {@code dest} now, in call order.
     */
    private void pump(final int dest) {
        final ArrayDeque<MessageRequest> queue = sendQueue[dest];
        while (!queue.isEmpty()) {
            final MessageRequest request = queue.peekFirst();
            if (request.buffer().byteSize() <= layout.bounceBytes()) {
                if (!sendEager(request, dest)) {
                    return;
                }
            } else {
                if (outbound[dest] != null) {
                    return;
                }
                startRendezvous(request, dest);
            }
            queue.pollFirst();
            queuedSends--;
        }
    }

    /**
     * Puts the message into this rank's bounce ring at {@code dest}, if the credit allows.
     *
     * @return false if the ring lacks room (the request stays queued until credit returns).
     */
    private boolean sendEager(final MessageRequest request, final int dest) {
        if (!sendEager(request.buffer(), dest, request.context(), request.tag())) {
            return false;
        }
        request.completeSend(rank, request.buffer().byteSize());
        return true;
    }

    /**
     * MPI_SEND's common case: nothing queued to {@code dest}, a message short enough for the bounce ring and
     * room for it there. Sends it at once, as {@link #isend} would, without a request (the blocking call
     * needs none: the message is on its way when this returns true, and its buffer may be reused).
     *
     * @return false if the message must go through {@link #isend} (queued, rendezvous, or no room).
     */
    boolean sendNow(final MemorySegment buffer, final int dest, final int context, final int tag) {
        return sendQueue[dest].isEmpty() && buffer.byteSize() <= layout.bounceBytes()
            && sendEager(buffer, dest, context, tag);
    }

    private boolean sendEager(final MemorySegment buffer, final int dest, final int context, final int tag) {
        final long length = buffer.byteSize();
        if (length <= NotifyRequest.INLINE_BYTES) {
            // NOTE: to a rank of this node a short message travels in its notification only: no ring bytes, no
            // credit. The lane is FIFO, so it keeps its place among this rank's ring messages to dest.
            transfer();
            if (ACCESS.putNotifyInlineOnly(window, buffer, dest, layout.inlineOnlyOffset(rank), context | tag)) {
                return true;
            }
        }
        final long size = MessagingLayout.recordBytes(length);
        final long capacity = layout.ringBytes();
        final long written = reserved[dest];
        final long position = written % capacity;
        final long start = position + size > capacity ? written + capacity - position : written;
        // The payload's ring bytes were last used one lap earlier, at [start - capacity, start + size - capacity);
        // the part of that range at or after `written` is the padding just skipped, which holds no payload.
        final long mustBeConsumed = Math.min(written, start + size - capacity);
        final long credit = local.get(ValueLayout.JAVA_LONG, layout.creditOffset(dest));
        if (credit < mustBeConsumed) {
            askForCredit(dest);
            return false;
        }
        creditAsked[dest] = false;
        transfer();
        window.putNotify(buffer, dest, layout.ringOffset(rank) + start % capacity, context | tag);
        reserved[dest] = start + size;
        return true;
    }

    /**
     * Asks {@code dest} for the credit it owes this rank (once per shortage): an empty notified put at this
     * rank's credit word there. It waits for room in this rank's lane at {@code dest} if need be (draining
     * this rank's lanes meanwhile): without the question {@code dest} might sleep owing the credit.
     */
    private void askForCredit(final int dest) {
        if (creditAsked[dest]) {
            return;
        }
        transfer();
        window.putNotify(MemorySegment.NULL, dest, layout.creditOffset(rank), CONTROL_TAG);
        creditAsked[dest] = true;
    }

    /**
     * Announces the message with its length: with this process's pid and the buffer's address, for the receiver
     * to read it directly, when both are possible (see {@link #directReadPid}); else with its first two chunks
     * staged.
     */
    private void startRendezvous(final MessageRequest request, final int dest) {
        final MemorySegment buffer = request.buffer();
        final long length = buffer.byteSize();
        final boolean direct = directReadPid != 0 && buffer.isNative() && ACCESS.onThisNode(window, dest);
        final Outbound message = new Outbound(request, direct ? 1 : layout.chunks(length), direct);
        if (!direct) {
            copyChunk(message, 0, dest);
            if (message.chunks > 1) {
                copyChunk(message, 1, dest);
            }
        }
        rtsEntry.set(ValueLayout.JAVA_LONG, 0, length);
        rtsEntry.set(ValueLayout.JAVA_LONG, MessagingLayout.RTS_PID, direct ? directReadPid : 0);
        rtsEntry.set(ValueLayout.JAVA_LONG, MessagingLayout.RTS_ADDRESS, direct ? buffer.address() : 0);
        // NOTE: the staged chunks are stored before this notification is published (release), so the
        // receiver's getNotify after draining it (acquire) reads them.
        transfer();
        window.putNotify(rtsEntry, dest, layout.rtsOffset(rank), request.context() | request.tag());
        message.staged = direct ? 1 : Math.min(2, message.chunks);
        outbound[dest] = message;
        activeRendezvous++;
        if (!direct && message.staged == message.chunks) {
            request.completeSend(rank, length);
        }
    }

    /**
     * Copies chunk {@code chunk} of an outbound message into its staging half (the receiver reads it only
     * after the notification that announces it).
     */
    private void copyChunk(final Outbound message, final long chunk, final int dest) {
        final long offset = chunk * layout.chunkBytes();
        final long bytes = Math.min(layout.chunkBytes(), message.request.buffer().byteSize() - offset);
        MemorySegment.copy(message.request.buffer(), offset, local, layout.stagingOffset(dest, chunk), bytes);
    }

    /**
     * Throws once if a test armed {@link #failNextTransfer} for this engine, as a notified access that
     * fails would.
     */
    private void transfer() {
        if (failNextTransfer == this) {
            failNextTransfer = null;
            throw new RmaTimeoutException("room in the notification ring of a peer (test hook)", 0, null);
        }
    }

    /**
     * {@code dest} has read a chunk: refill its half with the next one, or finish the message.
     */
    private void onAcknowledgement(final int dest) {
        final Outbound message = outbound[dest];
        if (message == null) {
            throw new IllegalStateException("rank " + rank + " got a rendezvous acknowledgement from rank " + dest
                + " with no rendezvous in flight");
        }
        if (message.staged < message.chunks) {
            copyChunk(message, message.staged, dest);
            // NOTE: the chunk is stored before the signal is published (release).
            try {
                transfer();
                window.putNotify(MemorySegment.NULL, dest, MessagingLayout.CHUNK_SIGNAL_OFFSET, CONTROL_TAG);
            } catch (final RuntimeException e) {
                // The acknowledgement is consumed and the chunk cannot be announced: the rendezvous cannot go on.
                throw fail(e);
            }
            message.staged++;
            message.acknowledged++;
            if (message.staged == message.chunks) {
                message.request.completeSend(rank, message.request.buffer().byteSize());
            }
        } else {
            message.acknowledged++;
        }
        if (message.acknowledged == message.chunks) {
            if (message.direct) {
                // The receiver has read the buffer: the send has taken effect.
                message.request.completeSend(rank, message.request.buffer().byteSize());
            }
            outbound[dest] = null;
            activeRendezvous--;
            pump(dest);
        }
    }

    /**
     * {@code dest} has matched this rank's direct rendezvous message and reads its second half: writes the first
     * half into the receive's buffer in {@code dest}'s process and signals it (the receiver then acknowledges).
     */
    private void onClearToSend(final int dest) {
        final Outbound message = outbound[dest];
        if (message == null || !message.direct) {
            throw new IllegalStateException(
                "rank " + rank + " got a clear-to-send from rank " + dest + " with no direct rendezvous in flight");
        }
        final long entry = layout.ctsOffset(dest);
        final long pid = local.get(ValueLayout.JAVA_LONG, entry);
        final long address = local.get(ValueLayout.JAVA_LONG, entry + MessagingLayout.CTS_ADDRESS);
        final long bytes = local.get(ValueLayout.JAVA_LONG, entry + MessagingLayout.CTS_BYTES);
        final int error = CrossMemory.write(pid, address, message.request.buffer().asSlice(0, bytes));
        if (error != 0) {
            throw fail(RendezvousInbound.crossMemoryFailure(error, rank, dest, pid, "write", liveness));
        }
        try {
            transfer();
            window.putNotify(MemorySegment.NULL, dest, MessagingLayout.CHUNK_SIGNAL_OFFSET, CONTROL_TAG);
        } catch (final RuntimeException e) {
            // The half is written and cannot be announced: the rendezvous cannot go on.
            throw fail(e);
        }
    }

    // ---------------------------------------------------------------- receiving

    private void dispatch(final int source, final int wireTag, final long disp, final int length, final int arrival) {
        final MessagingLayout.Region region = layout.regionOf(disp);
        if (region != MessagingLayout.Region.CHUNK_SIGNAL && layout.ownerOf(region, disp) != source) {
            throw new IllegalStateException("rank " + rank + " got a notification from rank " + source + " in the "
                + region + " slot of rank " + layout.ownerOf(region, disp) + " at displacement " + disp);
        }
        switch (region) {
            case BOUNCE -> onEager(source, wireTag, disp, length, arrival);
            case RENDEZVOUS -> rendezvous.onRendezvous(source, wireTag);
            case CHUNK_SIGNAL -> rendezvous.onChunkSignal(source);
            case CLEAR_TO_SEND -> onClearToSend(source);
            case STAGING -> onAcknowledgement(source);
            case CREDIT -> {
                if (length == 0) {
                    credit.ask(source);
                }
            }
        }
        if (!sendQueue[source].isEmpty()) {
            // NOTE: besides credit, the source may have written credit without a notification (its lane here was
            // full: putCredit): any of its notifications is the occasion to read the credit word again.
            pump(source);
        }
    }

    /**
     * An eager message from {@code source}: copies it out of the ring (into the matching receive or
     * into an unexpected copy), which frees its ring bytes.
     */
    private void onEager(final int source, final int wireTag, final long disp, final int length, final int arrival) {
        final boolean inline = batch.inlineLength[arrival] == length;
        if (disp == layout.inlineOnlyOffset(source)) {
            if (!inline) {
                throw new IllegalStateException("rank " + rank + " got an inline-only message of " + length
                    + " bytes from rank " + source + " that carried " + batch.inlineLength[arrival] + " bytes inline");
            }
        } else {
            final long size = MessagingLayout.recordBytes(length);
            if (size > 0) {
                credit.consume(source, disp - layout.ringOffset(source), size);
            }
        }
        if ((wireTag & COLLECTIVE_CONTEXT) != 0 && MessagingCollectives.isClose(wireTag)) {
            onClosing(source);
        }
        // NOTE: a short message travelled inside its notification (only, or too): copying it from there reads the
        // line this rank has already, not the ring's line, which the sender's store took away.
        final int words = arrival * InlineWords.WORDS;
        final MessageRequest request = queues.takePosted(source, wireTag);
        if (request != null) {
            if (MatchQueues.fits(request, source, wireTag, length)) {
                if (inline) {
                    InlineWords.write(request.buffer(), 0, length, batch.inlineWords, words);
                } else {
                    MemorySegment.copy(local, disp, request.buffer(), 0, length);
                }
                request.complete(queues.status(source, wireTag, length));
            }
        } else {
            final Unexpected parked = spareFor(inline ? 0 : length);
            parked.source = source;
            parked.wireTag = wireTag;
            parked.length = length;
            parked.inline = inline;
            if (inline) {
                System.arraycopy(batch.inlineWords, words, parked.words, 0, InlineWords.WORDS);
            } else {
                MemorySegment.copy(local, disp, parked.data, 0, length);
            }
            queues.park(parked);
        }
    }

    /**
     * {@code source} has entered Messaging.close, which it leaves only after this rank entered it too:
     * a receive that only {@code source} can match never will.
     */
    private void onClosing(final int source) {
        closing[source] = true;
        queues.removePostedFrom(source,
            request -> request.failEndingWaits(ErrorClass.OTHER, neverMatches(request, source)));
    }

    private String neverMatches(final MessageRequest request, final int source) {
        return "rank " + rank + "'s " + request + " can never match: rank " + source + " is closing its Messaging"
            + " object (Messaging.close is collective, and it sent no such message before)";
    }

    /**
     * Tells each sender that asked for credit, or whose unreported consumed bytes reach a quarter of its ring,
     * how far this rank has consumed its ring, with one notified put of the total into the sender's credit word.
     *
     * @return whether any credit was returned.
     */
    private boolean returnCredit() {
        return credit.returnOwed(creditReport, layout.ringBytes() / CREDIT_PARTS);
    }

    /**
     * Puts {@code consumed} into {@code source}'s credit word for this rank's ring there.
     */
    private void putCredit(final int source, final long consumed) {
        word.set(ValueLayout.JAVA_LONG, 0, consumed);
        transfer();
        // NOTE: never wait for room here. A lane full of this rank's notifications to the sender is drained by
        // the sender, whose handling of any of them reads the credit word again (pump); while the lane is full the
        // sender may be waiting for this rank (a barrier, a receive), so waiting for room could deadlock.
        ACCESS.putNotifyIfRoom(window, word, source, layout.creditOffset(rank), CONTROL_TAG);
    }
}
