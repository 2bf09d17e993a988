package org.rma4j.internal.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.rma4j.mpi.Mpi;
import org.rma4j.mpi.MpiBasicType;
import org.rma4j.mpi.MpiComm;
import org.rma4j.mpi.MpiDatatype;
import org.rma4j.mpi.MpiMode;
import org.rma4j.mpi.MpiOp;
import org.rma4j.mpi.MpiRequest;
import org.rma4j.mpi.MpiStatus;
import org.rma4j.mpi.MpiThreadLevel;
import org.rma4j.mpi.MpiWin;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.Words;

/**
 * One rank's connection to MPI in a job launched by an MPI launcher: the world and node communicators, which
 * node each rank runs on, the serialization of the rank's MPI calls, the progress it drives, and the active
 * messages of its windows.
 *
 * <h2>Thread level and serialization</h2>
 * MPI is initialized at {@code MPI_THREAD_SERIALIZED} (the binding's default, see {@link Mpi}): Open MPI 4.1's
 * one-sided component across nodes over TCP ({@code osc/pt2pt}) refuses {@code MPI_THREAD_MULTIPLE}. Every MPI
 * call of the runtime holds {@link #lock()} (a {@link ReentrantLock}); a thread never waits for a peer while
 * holding it: blocking MPI operations are started nonblocking and completed by {@link #await}, which tests them
 * with the lock held only for the test, so the other threads of the rank (the progress thread among them) keep
 * their turn.
 *
 * <h2>Progress</h2>
 * Open MPI's {@code osc/pt2pt} (and MPICH) apply a peer's one-sided operation at the target only while a thread
 * of the target is inside MPI, and this rank's active-message handlers run only when a thread polls the link.
 * {@link #poll()} does both: it serves the requests that arrived (an {@code MPI_Iprobe} on the message
 * communicator, which also lets MPI progress everything else) and offers the waiting ones again. It runs
 * <ul>
 *   <li>in every round of every wait of the rank: the job's {@link WaitStrategy} carries {@link #pollIfFree} as
 *   its poller, so a rank that waits serves its peers at the rate it spins or yields, and before each of its
 *   sleeps;</li>
 *   <li>in the progress thread, every {@value #PROGRESS_INTERVAL_DEFAULT_US} microseconds
 *   ({@value #PROGRESS_INTERVAL_PROP_NAME}) unless a poll ran meanwhile: a rank that computes, or sleeps,
 *   serves its peers within one interval.</li>
 * </ul>
 *
 * <h2>Active messages</h2>
 * An origin that needs an operation applied where the memory is (an atomic, a lock word, a signal, a
 * notification: {@link AmLayout}) sends a request to the target rank on a duplicate of the world communicator
 * (tag {@link AmLayout#REQUEST_TAG}); the target's {@link AmHandler} for the window applies it and replies on
 * the tag the origin chose, where the origin posted its receive before it sent. Requests of one origin are
 * handled in the order sent; one that must wait keeps the later ones of its origin waiting behind it.
 */
public final class MpiLink {
    /** System property: interval of the progress thread in microseconds. */
    public static final String PROGRESS_INTERVAL_PROP_NAME = "rma4j.mpi.progress.us";
    /** Default interval of the progress thread. */
    public static final long PROGRESS_INTERVAL_DEFAULT_US = 1000;
    /** Reply status of a request for a window this rank does not have (freed, or never created). */
    public static final int STATUS_NO_WINDOW = -1;
    /** Reply status of a request whose handler threw (the target reports it on its standard error). */
    public static final int STATUS_HANDLER_FAILED = -2;

    /** Requests received per poll at most, so that a poll that other threads wait for stays short. */
    private static final int MAX_REQUESTS_PER_POLL = 64;

    private final Mpi mpi;
    private final MpiComm world;
    private final MpiComm node;
    private final MpiComm messages;
    /** The one MPI window of the rank's one-sided calls across nodes: dynamic, over the world, in lock_all. */
    private final MpiWin win;
    /** Regions attached to {@link #win}, by start address, with the number of users of each. */
    private final Map<Long, Integer> attached = new HashMap<>();
    /** Requests that wanted no reply and arrived before their handler was registered, by key. */
    private final Map<Long, ArrayDeque<ActiveMessage>> unclaimed = new HashMap<>();
    private final MpiDatatype bytes;
    private final int rank;
    private final int size;
    private final int[] nodeOf;
    private final int nodes;
    private final ReentrantLock lock = new ReentrantLock();
    private final NativeBuffers buffers = new NativeBuffers();
    private final Map<Long, AmHandler> handlers = new ConcurrentHashMap<>();
    /** Sends in flight and the buffers they read (guarded by the lock). */
    private final ArrayDeque<Sending> sends = new ArrayDeque<>();
    /** Requests that must wait, per source, in arrival order (guarded by the lock). */
    private final Map<Integer, ArrayDeque<ActiveMessage>> waiting = new HashMap<>();
    private final AtomicInteger replyTags = new AtomicInteger();
    private boolean polling;
    private volatile long lastPollNs;
    private volatile boolean running;
    private Thread progress;

    private record Sending(MpiRequest request, NativeBuffers.Buffer buffer) {
    }

    private MpiLink(final Mpi mpi, final MpiComm node, final int[] nodeOf) {
        this.mpi = mpi;
        this.world = mpi.world();
        this.node = node;
        this.bytes = mpi.datatype(MpiBasicType.BYTE);
        this.rank = world.rank();
        this.size = world.size();
        this.nodeOf = nodeOf;
        this.nodes = java.util.Arrays.stream(nodeOf).max().orElse(0) + 1;
        this.messages = world.dup();
        this.win = MpiWin.createDynamic(world.dup(), Map.of());
        win.lockAll(MpiMode.NOCHECK);
    }

    /**
     * {@code MPI_Init_thread} at {@code MPI_THREAD_SERIALIZED}, the node communicator
     * ({@code MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)}) and the node of every rank: nodes are numbered in the
     * order of their lowest world rank. Collective over the world.
     *
     * @throws IllegalStateException if the library cannot be loaded or provides less than SERIALIZED.
     */
    public static MpiLink init() {
        final Mpi mpi = Mpi.init();
        if (mpi.providedThreadLevel().compareTo(MpiThreadLevel.SERIALIZED) < 0) {
            throw new IllegalStateException("MPI provides thread level " + mpi.providedThreadLevel()
                + "; rma4j needs MPI_THREAD_SERIALIZED (a progress thread calls MPI besides the program's thread)");
        }
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final MpiComm node = world.splitTypeShared(rank);
        final long leader = node.allreduce(rank, MpiOp.MIN);
        final int size = world.size();
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment mine = arena.allocateFrom(ValueLayout.JAVA_LONG, leader);
            final MemorySegment all = arena.allocate(ValueLayout.JAVA_LONG, size);
            final MpiDatatype int64 = mpi.datatype(MpiBasicType.INT64_T);
            world.allgather(mine, 1, int64, all, 1, int64);
            final long[] leaders = all.toArray(ValueLayout.JAVA_LONG);
            final TreeSet<Long> distinct = new TreeSet<>();
            for (final long l : leaders) {
                distinct.add(l);
            }
            final int[] nodeOf = new int[size];
            for (int r = 0; r < size; r++) {
                nodeOf[r] = distinct.headSet(leaders[r]).size();
            }
            return new MpiLink(mpi, node, nodeOf);
        }
    }

    public Mpi mpi() {
        return mpi;
    }

    /** @return MPI_COMM_WORLD. */
    public MpiComm world() {
        return world;
    }

    /** @return the communicator of this node's ranks (from {@code MPI_Comm_split_type}), in world order. */
    public MpiComm node() {
        return node;
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    /** @return the number of nodes of the job. */
    public int nodes() {
        return nodes;
    }

    /** @return the node of world rank {@code worldRank}, 0..nodes()-1. */
    public int nodeOf(final int worldRank) {
        return nodeOf[worldRank];
    }

    /** @return the buffer pool of the link's messages (and of the runtime's staging). */
    public NativeBuffers buffers() {
        return buffers;
    }

    /** Takes the lock every MPI call of the rank holds. */
    public void lock() {
        lock.lock();
    }

    public void unlock() {
        lock.unlock();
    }

    /**
     * Serves what arrived: completes finished sends, handles up to {@value #MAX_REQUESTS_PER_POLL} new requests
     * and offers the waiting ones again. The caller holds the lock; a call from inside a handler does nothing.
     */
    public void poll() {
        if (polling) {
            return;
        }
        polling = true;
        try {
            lastPollNs = System.nanoTime();
            completeSends();
            for (int i = 0; i < MAX_REQUESTS_PER_POLL; i++) {
                final MpiStatus status = messages.iprobe(Mpi.ANY_SOURCE, AmLayout.REQUEST_TAG);
                if (status == null) {
                    break;
                }
                receive(status);
            }
            retryWaiting();
        } finally {
            polling = false;
        }
    }

    /**
     * The poller of the job's waits: {@link #poll()} if no other thread holds the lock (that thread is in MPI,
     * which progresses anyway).
     */
    public void pollIfFree() {
        if (lock.tryLock()) {
            try {
                poll();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Completes {@code request} (started by the caller under the lock), polling the link meanwhile.
     *
     * @param what what is awaited, for a timeout's message.
     */
    public void await(final MpiRequest request, final WaitStrategy wait, final Liveness liveness, final String what) {
        if (!test(request)) {
            wait.awaitPolled(() -> test(request), liveness, what);
        }
    }

    /**
     * @return whether {@code request} completed (one {@code MPI_Test}, after a poll).
     */
    public boolean test(final MpiRequest request) {
        lock.lock();
        try {
            poll();
            return request.test();
        } finally {
            lock.unlock();
        }
    }

    /**
     * @return a buffer for a request of {@code payloadBytes} bytes of payload (header included).
     */
    public NativeBuffers.Buffer request(final long payloadBytes) {
        return buffers.acquire(AmLayout.HEADER_LENGTH + payloadBytes);
    }

    /**
     * Sends a request that wants no reply; the link owns {@code message} from now on. Takes the lock.
     */
    public void send(final int dest, final NativeBuffers.Buffer message) {
        lock.lock();
        try {
            isend(dest, AmLayout.REQUEST_TAG, message, requestLength(message));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends a request and waits for its reply; the link owns {@code message} from now on.
     *
     * @param into receives the reply's payload (its first bytes, up to its size).
     * @return the reply's status: 0 or the handler's, {@link #STATUS_NO_WINDOW} or
     *         {@link #STATUS_HANDLER_FAILED}.
     * @throws RemoteFailureException if the handler replied with an error ({@link ActiveMessage#fail}).
     */
    public int call(final int dest, final NativeBuffers.Buffer message, final MemorySegment into,
        final WaitStrategy wait, final Liveness liveness, final String what) {
        final int tag = AmLayout.MIN_REPLY_TAG
            + Math.floorMod(replyTags.getAndIncrement(), AmLayout.MAX_REPLY_TAG - AmLayout.MIN_REPLY_TAG + 1);
        Words.putInt(message.segment(), AmLayout.REPLY_TAG_OFFSET, tag);
        final long capacity = AmLayout.REPLY_HEADER_LENGTH + Math.max(into.byteSize(), AmLayout.MAX_ERROR_TEXT);
        final NativeBuffers.Buffer reply = buffers.acquire(capacity);
        final MpiRequest received;
        lock.lock();
        try {
            received = messages.irecv(reply.segment(), (int)capacity, bytes, dest, tag);
            isend(dest, AmLayout.REQUEST_TAG, message, requestLength(message));
        } finally {
            lock.unlock();
        }
        await(received, wait, liveness, what);
        final MemorySegment header = reply.segment();
        try {
            final int status = Words.getInt(header, AmLayout.REPLY_STATUS_OFFSET);
            final long length = Words.getLong(header, AmLayout.REPLY_PAYLOAD_LENGTH_OFFSET);
            if ((Words.getInt(header, AmLayout.REPLY_FLAGS_OFFSET) & AmLayout.REPLY_FLAG_ERROR) != 0) {
                throw new RemoteFailureException(status,
                    new String(header.asSlice(AmLayout.REPLY_HEADER_LENGTH, length).toArray(ValueLayout.JAVA_BYTE),
                        java.nio.charset.StandardCharsets.UTF_8));
            }
            MemorySegment.copy(header, AmLayout.REPLY_HEADER_LENGTH, into, 0, Math.min(into.byteSize(), length));
            return status;
        } finally {
            buffers.release(reply);
        }
    }

    /**
     * Waits at most {@code timeoutNs} for the sends in flight to complete (a rank about to exit gives its last
     * messages a chance to leave).
     */
    public void drainSends(final long timeoutNs) {
        final long deadline = System.nanoTime() + timeoutNs;
        while (System.nanoTime() < deadline) {
            lock.lock();
            try {
                completeSends();
                if (sends.isEmpty()) {
                    return;
                }
            } finally {
                lock.unlock();
            }
            LockSupport.parkNanos(100_000L);
        }
    }

    /** Registers the handler of a window's requests. */
    public void register(final long window, final AmHandler handler) {
        if (handlers.putIfAbsent(window, handler) != null) {
            throw new IllegalStateException("window " + window + " has a handler already");
        }
        lock.lock();
        try {
            final ArrayDeque<ActiveMessage> early = unclaimed.remove(window);
            while (early != null && !early.isEmpty()) {
                final ActiveMessage message = early.pollFirst();
                final int outcome = handle(message);
                if (outcome == DONE) {
                    message.release();
                } else if (outcome == WAIT) {
                    waiting.computeIfAbsent(message.source(), source -> new ArrayDeque<>()).addLast(message);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * @return the MPI window of the rank's one-sided calls across nodes: dynamic, over the world, in a lasting
     *         {@code MPI_Win_lock_all(MPI_MODE_NOCHECK)} epoch; a target's memory is reached at its address, once
     *         the target {@link #attach}ed it. Used under the lock.
     */
    public MpiWin win() {
        return win;
    }

    /**
     * {@code MPI_Win_attach} of a whole mapping to {@link #win()} (a local call), counted: a mapping several
     * windows expose is attached once.
     */
    public void attach(final MemorySegment mapping) {
        if (mapping.byteSize() == 0) {
            return;
        }
        lock.lock();
        try {
            if (attached.merge(mapping.address(), 1, Integer::sum) == 1) {
                win.attach(mapping);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Ends one use of a mapping {@link #attach}ed; the last one detaches it. */
    public void detach(final MemorySegment mapping) {
        if (mapping.byteSize() == 0) {
            return;
        }
        lock.lock();
        try {
            final Integer users = attached.get(mapping.address());
            if (users == null) {
                return;
            }
            if (users == 1) {
                attached.remove(mapping.address());
                win.detach(mapping);
            } else {
                attached.put(mapping.address(), users - 1);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Removes the handler of a window; later requests for it get {@link #STATUS_NO_WINDOW}. */
    public void unregister(final long window) {
        handlers.remove(window);
    }

    /**
     * Starts the progress thread (a daemon), when the job spans nodes.
     */
    public void startProgress() {
        final long intervalNs = TimeUnit.MICROSECONDS
            .toNanos(Math.max(10, Long.getLong(PROGRESS_INTERVAL_PROP_NAME, PROGRESS_INTERVAL_DEFAULT_US)));
        running = true;
        progress = Thread.ofPlatform().daemon().name("rma4j-mpi-progress-" + rank).start(() -> {
            while (running) {
                LockSupport.parkNanos(intervalNs);
                if (running && System.nanoTime() - lastPollNs >= intervalNs) {
                    try {
                        pollIfFree();
                    } catch (final RuntimeException e) {
                        System.err.println("rma4j: rank " + rank + ": the MPI progress thread stops: " + e);
                        running = false;
                    }
                }
            }
        });
    }

    /**
     * {@code MPI_Abort} of the world with {@code status}: ends every rank of the job. Does not return.
     */
    public void abort(final int status) {
        lock.lock();
        mpi.abort(world, status);
    }

    /**
     * Stops the progress thread, completes the sends still in flight (bounded by the strategy's timeout) and
     * finalizes MPI (collective over the world).
     */
    public void close(final WaitStrategy wait) {
        running = false;
        final Thread thread = progress;
        if (thread != null) {
            LockSupport.unpark(thread);
            boolean interrupted = false;
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (final InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        wait.awaitPolled(() -> {
            lock.lock();
            try {
                completeSends();
                return sends.isEmpty();
            } finally {
                lock.unlock();
            }
        }, Liveness.NONE, "the last active messages of rank " + rank + " to be sent");
        lock.lock();
        try {
            win.unlockAll();
            win.free();
            mpi.finalizeMpi();
        } finally {
            lock.unlock();
        }
    }

    /** A handler's reply; the link owns {@code reply} from now on (called under the lock). */
    void sendReply(final int dest, final int tag, final NativeBuffers.Buffer reply) {
        final long length = AmLayout.REPLY_HEADER_LENGTH
            + Words.getLong(reply.segment(), AmLayout.REPLY_PAYLOAD_LENGTH_OFFSET);
        isend(dest, tag, reply, length);
    }

    private void isend(final int dest, final int tag, final NativeBuffers.Buffer buffer, final long length) {
        final MpiRequest request = messages.isend(buffer.segment(), Math.toIntExact(length), bytes, dest, tag);
        sends.addLast(new Sending(request, buffer));
    }

    private static long requestLength(final NativeBuffers.Buffer message) {
        return AmLayout.HEADER_LENGTH + Words.getLong(message.segment(), AmLayout.PAYLOAD_LENGTH_OFFSET);
    }

    private void completeSends() {
        for (final Iterator<Sending> it = sends.iterator(); it.hasNext();) {
            final Sending sending = it.next();
            if (sending.request().test()) {
                buffers.release(sending.buffer());
                it.remove();
            }
        }
    }

    /** {@link #handle}: the request is done (released by the caller). */
    private static final int DONE = 0;
    /** {@link #handle}: the request must wait; it and its source's later ones are offered again. */
    private static final int WAIT = 1;
    /** {@link #handle}: the request waits for its handler's registration ({@link #unclaimed} owns it). */
    private static final int PARKED = 2;

    private void receive(final MpiStatus status) {
        final int length = status.count();
        final NativeBuffers.Buffer buffer = buffers.acquire(length);
        messages.recv(buffer.segment(), length, bytes, status.source(), AmLayout.REQUEST_TAG);
        AmLayout.checkRequest(buffer.segment(), length, status.source());
        final ActiveMessage message = new ActiveMessage(this, status.source(), buffer, length);
        final ArrayDeque<ActiveMessage> queue = waiting.get(status.source());
        if (queue != null) {
            queue.addLast(message);
            return;
        }
        final int outcome = handle(message);
        if (outcome == DONE) {
            message.release();
        } else if (outcome == WAIT) {
            final ArrayDeque<ActiveMessage> first = new ArrayDeque<>();
            first.addLast(message);
            waiting.put(status.source(), first);
        }
    }

    private void retryWaiting() {
        for (final Iterator<ArrayDeque<ActiveMessage>> it = waiting.values().iterator(); it.hasNext();) {
            final ArrayDeque<ActiveMessage> queue = it.next();
            while (!queue.isEmpty()) {
                final int outcome = handle(queue.peekFirst());
                if (outcome == WAIT) {
                    break;
                }
                final ActiveMessage message = queue.pollFirst();
                if (outcome == DONE) {
                    message.release();
                }
            }
            if (queue.isEmpty()) {
                it.remove();
            }
        }
    }

    /**
     * @return {@link #DONE}, {@link #WAIT} or {@link #PARKED} (see {@link AmHandler#handle}).
     */
    private int handle(final ActiveMessage message) {
        final AmHandler handler = handlers.get(message.window());
        if (handler == null && !message.expectsReply()) {
            // NOTE: a peer that finished making a communicator or window may send before this rank registered
            // its handler; the message waits for it (a message for a freed object is kept until the job ends).
            unclaimed.computeIfAbsent(message.window(), key -> new ArrayDeque<>()).addLast(message);
            return PARKED;
        }
        if (handler == null) {
            message.reply(STATUS_NO_WINDOW);
            return DONE;
        }
        try {
            return handler.handle(message) ? DONE : WAIT;
        } catch (final RuntimeException e) {
            System.err.println("rma4j: rank " + rank + " could not apply a request of rank " + message.source()
                + " (kind " + message.kind() + ", window " + message.window() + "): " + e);
            e.printStackTrace();
            message.reply(STATUS_HANDLER_FAILED);
            return DONE;
        }
    }

    @Override
    public String toString() {
        return "MpiLink{rank " + rank + " of " + size + ", " + nodes + " nodes, " + mpi + '}';
    }
}
