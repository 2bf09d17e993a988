package org.rma4j.messaging;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.rma4j.Communicator;
import org.rma4j.Datatype;
import org.rma4j.ErrorClass;
import org.rma4j.Info;
import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.RmaException;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.internal.RuntimeAccess;

/**
 * Two-sided message passing over one window: blocking and nonblocking send and receive with
 * (source, tag) matching and wildcards, plus barrier, broadcast and reduce. Small and correct, not a
 * full MPI: contiguous bytes, no probe, cancel, ready or synchronous mode. A Messaging layer lives on one
 * communicator ({@link #create(Communicator)}; {@link #create(RmaJob)} is the world's): its ranks are the
 * communicator's, and its matching is its own, since its window is, so two libraries that each make one on
 * their own {@link Communicator#dup} never see each other's messages, whatever their tags.
 * It serves as the message-passing baseline that Notified Access is compared with (Belli and Hoefler,
 * "Notified Access", IPDPS 2015, section V) and as external synchronization for one-sided programs.
 *
 * <h2>Semantics</h2>
 * <ul>
 *   <li>Matching (MPI-3.1 section 3.5): a receive takes the oldest arrived message that matches its
 *   source ({@link Rma#ANY_SOURCE} matches any) and tag ({@link Rma#ANY_TAG} matches any); an arriving
 *   message goes to the oldest posted receive that matches it. Messages from one rank to another are
 *   non-overtaking: with matching tags they are received in the order they were sent, whatever their
 *   sizes and whether sent blocking or not.</li>
 *   <li>A send completes when its buffer may be reused; it never waits for a receive to be posted,
 *   only for the receiver to make progress (any call of its Messaging object does), so two ranks may
 *   both send before they receive, at any size.</li>
 *   <li>A message longer than the receive buffer fails the receive with {@link ErrorClass#COUNT} (the
 *   standard's MPI_ERR_TRUNCATE) naming both sizes; the message is consumed and the buffer is left
 *   unchanged. Tags are 0..{@link #TAG_UB} ({@link ErrorClass#TAG} otherwise); ranks outside the communicator
 *   raise {@link ErrorClass#RANK}; {@link Rma#PROC_NULL} as destination or source completes at once.
 *   A call that throws for a bad argument changes nothing: the object stays usable.</li>
 *   <li>Messages are 0 to {@link #MAX_MESSAGE_BYTES} bytes. Buffers may be any memory (heap arrays
 *   included); they are copied, never exposed (a long message's native send buffer is read by the receiving
 *   process of the same node through the kernel, see the direct rendezvous below).</li>
 * </ul>
 *
 * <h2>Protocol</h2>
 * {@link #create} allocates one shared window ({@link MessagingLayout}: per rank a bounce ring for each
 * sender, a staging pair for each receiver, a credit and a rendezvous word per peer). Every message and
 * every control signal is a notified access on it ({@link Window#putNotify}, {@link Window#getNotify}),
 * so it travels through the sender's notification lane at the receiver, in the order the sender issued it;
 * the receiver takes them from its lanes in batches (the window's notification endpoint, as a request that
 * matches anything would, with one hold of the endpoint's guard per batch instead of a request's start and
 * test per notification), and tells the kinds apart by the displacement each notification names (Notified
 * Access, section IV: the notification names the target region it announces). No other shared-memory
 * protocol is added below the runtime.
 * <ul>
 *   <li><b>Eager</b> (length &lt;= bounceBytesPerPeer): the sender reserves the next free bytes of its
 *   ring at the receiver (64-byte aligned, skipping to the start when the payload does not fit before
 *   the end) and does a notified put of the payload there with the message's tag (the data is copied at
 *   the call; up to 32 bytes also travel inside the notification, from which the receiver copies them). The
 *   notification's displacement and length locate the payload. On arrival the receiver
 *   copies it into the oldest matching posted receive, or into a private buffer as an unexpected
 *   message, so ring bytes are always freed in the order the sender wrote them (its lane is FIFO).</li>
 *   <li><b>Inline</b> (length &lt;= 32 bytes and &lt;= bounceBytesPerPeer, between ranks of one node): the
 *   message travels in its notification only (the runtime's notified put without the window copy); the
 *   notification names byte 8 of the sender's ring, where no payload starts, so the receiver knows that it took
 *   no ring bytes and owes no credit for it. Its lane's FIFO order keeps it in place among the sender's other
 *   messages, and the lane's capacity is its flow control. To a rank on another node (whose notifications
 *   carry no data) a short message is an eager one.</li>
 *   <li><b>Credit</b>: the sender may have at most one ring's worth of bytes unconsumed at a receiver.
 *   The receiver reports, per sender whose payloads it consumed, the total consumed so far with an 8-byte
 *   notified put into the sender's credit word, once a quarter of that sender's ring is owed. The sender
 *   reads its credit word before each eager send; when its ring lacks room it asks the receiver for the
 *   credit with an empty notified put at its credit word there (once per shortage), which the receiver
 *   answers at its next progress, before it could sleep, with everything it consumed: the question follows
 *   the sender's payloads in its lane, so the answer covers them all. The sender resumes its queued sends to
 *   that receiver when credit returns. A ping-pong or a stream thus costs one credit notification per
 *   quarter ring, not one per message.</li>
 *   <li><b>Rendezvous</b> (longer messages): the sender copies the first two chunks (chunk size: the
 *   ring size clamped to 64 KiB .. 1 MiB) into the two halves of its staging pair for the receiver and
 *   announces the message with an 8-byte inline notified put of its length into the receiver's
 *   rendezvous word, with the message's tag. The receiver matches the announcement like an eager
 *   message and reads each chunk with a notified get from the sender's staging half straight into the
 *   matched receive's buffer (or into a private buffer, if no receive matches yet: the sender is never
 *   held up by a missing receive). The get's notification acknowledges the chunk; the sender refills
 *   that half with the chunk after next and signals it with an empty notified put to the receiver's
 *   chunk-signal address. One rendezvous per ordered pair is in flight at a time; later messages to the
 *   same receiver keep their order because a send queue per destination lets only its head go out.</li>
 *   <li><b>Direct rendezvous</b> (a longer message from native memory to a rank of this node, where Linux lets one
 *   process read another's memory: {@code process_vm_readv}, the single copy of Open MPI's shared-memory transport
 *   (CMA), and {@link #DIRECT_READS_PROP_NAME} is not false): the announcement also carries the sender's pid and
 *   the address of its buffer, and the receiver, once a receive has taken the message, reads it with one kernel
 *   copy and acknowledges it with an empty notified put to the sender's staging pair. Into a native receive
 *   buffer, for a message of more than two chunks (128 KiB by default), the two copy a half each at the same time:
 *   the receiver answers with a clear-to-send carrying its pid and the buffer's address, the sender writes the first
 *   half there ({@code process_vm_writev}) and signals it at the receiver's chunk-signal address while the receiver
 *   reads the second half, and the receiver acknowledges after that signal. A message no receive has taken stays
 *   unread in the sender's buffer until one does, or until its receiver would block or tests a request, which then
 *   reads it into a private buffer (so the sender is never held up by a missing receive). Nothing is staged, so the
 *   message crosses memory once instead of twice; the send completes with the acknowledgement, and its buffer must
 *   stay as it is until then (as for any nonblocking send). A heap send buffer, or a receiver on another node, takes
 *   the staged rendezvous.</li>
 *   <li><b>Collectives</b> ({@link #barrier}, {@link #bcast}, {@link #reduce}, {@link #allreduce},
 *   {@link #close}) are point-to-point messages with a context bit in the tag that user receives never
 *   match: dissemination barrier, binomial-tree broadcast and reduce, reduce then broadcast for
 *   allreduce. Each message carries its call's kind and sequence number, which the receiver compares
 *   with its own call: calls that do not match raise {@link RmaException} OTHER naming both. A call
 *   that fails at one rank after it started completes the protocol with an error message in place of
 *   the data, so the ranks that depend on it throw too and the next call matches again
 *   (see {@link MessagingCollectives}).</li>
 * </ul>
 *
 * <h2>Progress and waiting</h2>
 * Every call makes progress: it handles all arrived notifications (matching messages, reading
 * rendezvous chunks, refilling staging halves, sending queued messages as credit returns) and then
 * returns the credit that is due (a quarter ring's worth, or whatever a sender asked for), so a rank never
 * blocks while a peer waits on it. A blocked call (a send waiting for credit or a
 * receive waiting for a message) keeps doing this and otherwise sleeps on its notification lanes, where
 * everything it can wait for arrives; two ranks that send large messages to each other before receiving
 * both finish. A rank that computes without calling its Messaging object makes no progress (as in MPI
 * without an asynchronous progress thread): its senders wait for it once their rings there are full.
 *
 * <h2>Threads and lifecycle</h2>
 * A Messaging object and its requests are used by one thread of their rank. {@link #create} and
 * {@link #close} are collective. Unexpected messages are kept in private memory until received, so a
 * program that sends much more than it receives grows this rank's heap.
 */
public final class Messaging implements AutoCloseable {
    /** The runtime internals this layer uses (see RuntimeAccess). */
    private static final RuntimeAccess ACCESS = RuntimeAccess.get();

    /** Largest tag (MPI_TAG_UB); the bit above it separates the collectives' messages. */
    public static final int TAG_UB = MessagingEngine.TAG_UB;
    /** Longest message in bytes (the largest Java array, as an unexpected message may need one). */
    public static final int MAX_MESSAGE_BYTES = Integer.MAX_VALUE - 8;
    /** System property giving the bounceBytesPerPeer of {@link #create(RmaJob)}. */
    public static final String BOUNCE_BYTES_PER_PEER_PROP_NAME = "rma4j.messaging.bounceBytesPerPeer";
    /** Default bounceBytesPerPeer: messages up to 64 KiB go eagerly. */
    public static final long BOUNCE_BYTES_PER_PEER_DEFAULT = 64 * 1024;
    /**
     * System property: notifications one rank may have unconsumed at another (the window's lane capacity, a power
     * of two in 1..16384; every rank must give the same).
     */
    public static final String NOTIFY_CAPACITY_PROP_NAME = "rma4j.messaging.notifyCapacity";
    /** Default of {@link #NOTIFY_CAPACITY_PROP_NAME}: as many as 8-byte messages fill a default bounce ring. */
    public static final int NOTIFY_CAPACITY_DEFAULT = 1024;
    /**
     * System property, true by default: whether a rendezvous message sent from native memory to a rank of this node
     * is read by its receiver directly from the send's buffer with one kernel copy, where the system allows it
     * (Linux {@code process_vm_readv}; see the class comment), instead of being staged through shared memory.
     */
    public static final String DIRECT_READS_PROP_NAME = "rma4j.messaging.directReads";

    private final RmaJob job;
    private final Window window;
    private final MessagingEngine engine;
    private final MessagingCollectives collectives;
    private final int rank;
    private final int size;

    private Messaging(final Window window, final MessagingLayout layout) {
        this.job = ACCESS.jobOf(window);
        this.window = window;
        this.engine = new MessagingEngine(window, layout, ACCESS.peers(window));
        this.rank = window.rank();
        this.size = window.ranks();
        this.collectives = new MessagingCollectives(engine, rank, size);
    }

    /**
     * Collective: {@link #create(RmaJob, long)} with the bounceBytesPerPeer of system property
     * {@value #BOUNCE_BYTES_PER_PEER_PROP_NAME}, or {@link #BOUNCE_BYTES_PER_PEER_DEFAULT}.
     */
    public static Messaging create(final RmaJob job) {
        return create(job, Long.getLong(BOUNCE_BYTES_PER_PEER_PROP_NAME, BOUNCE_BYTES_PER_PEER_DEFAULT));
    }

    /**
     * Collective over {@code job}'s world communicator: {@link #create(Communicator, long)}.
     */
    public static Messaging create(final RmaJob job, final long bounceBytesPerPeer) {
        Objects.requireNonNull(job, "job");
        ACCESS.checkOpen(job, "Messaging.create");
        return create(job.world(), bounceBytesPerPeer);
    }

    /**
     * Collective over {@code comm}: {@link #create(Communicator, long)} with the bounceBytesPerPeer of
     * system property {@value #BOUNCE_BYTES_PER_PEER_PROP_NAME}, or {@link #BOUNCE_BYTES_PER_PEER_DEFAULT}.
     */
    public static Messaging create(final Communicator comm) {
        return create(comm, Long.getLong(BOUNCE_BYTES_PER_PEER_PROP_NAME, BOUNCE_BYTES_PER_PEER_DEFAULT));
    }

    /**
     * Collective over {@code comm}: creates a messaging layer of its ranks, with a bounce ring of
     * {@code bounceBytesPerPeer} bytes (rounded up to 128) per ordered pair of ranks: messages up to that
     * length go eagerly, longer ones by rendezvous. Every rank must pass the same value.
     *
     * @throws RmaException SIZE at every rank if a rank's value is outside 0..1 GiB; ARG at every rank if
     *                      the ranks' values differ.
     */
    public static Messaging create(final Communicator comm, final long bounceBytesPerPeer) {
        Objects.requireNonNull(comm, "comm");
        final boolean valid = bounceBytesPerPeer >= 0 && bounceBytesPerPeer <= MessagingLayout.BOUNCE_BYTES_MAX;
        final MessagingLayout layout = new MessagingLayout(comm.size(), valid ? bounceBytesPerPeer : 0);
        // NOTE: allocate, not allocateShared: peers reach each other's parts by notified access only, which also
        // works across nodes; the values to agree on travel by an allgather.
        final Window window = comm.allocate(layout.partBytes(), 1,
            Info.of(Info.ALLOC_SHARED_NONCONTIG, "true").set(RmaJob.NOTIFY_CAPACITY_INFO_KEY,
                Integer.toString(Integer.getInteger(NOTIFY_CAPACITY_PROP_NAME, NOTIFY_CAPACITY_DEFAULT))));
        layout.writeHeader(window.segment(), bounceBytesPerPeer);
        // Every rank checks every rank's value, so all throw or none does.
        final long[] requested = comm.allgather(new long[] {bounceBytesPerPeer});
        RmaException problem = null;
        for (int r = 0; r < comm.size() && problem == null; r++) {
            final long theirs = requested[r];
            if (theirs < 0 || theirs > MessagingLayout.BOUNCE_BYTES_MAX) {
                problem = new RmaException(ErrorClass.SIZE, "Messaging.create bounceBytesPerPeer=" + theirs
                    + " at rank " + r + " is outside 0.." + MessagingLayout.BOUNCE_BYTES_MAX);
            } else if (theirs != requested[0]) {
                problem = new RmaException(ErrorClass.ARG,
                    "Messaging.create bounceBytesPerPeer differs between" + " ranks: " + requested[0] + " at rank 0, "
                        + theirs + " at rank " + r + "; it must be the same at" + " every rank");
            }
        }
        if (problem == null && valid) {
            problem = layout.checkHeader(window.segment(), comm.rank());
        }
        if (problem != null) {
            window.free();
            throw problem;
        }
        return new Messaging(window, layout);
    }

    /**
     * @return this process's rank in the communicator.
     */
    public int rank() {
        return rank;
    }

    /**
     * @return the number of ranks.
     */
    public int size() {
        return size;
    }

    // ---------------------------------------------------------------- point to point

    /**
     * MPI_SEND: sends {@code buffer} to {@code dest} with {@code tag} and returns when the buffer may be
     * reused, making progress (and receiving into posted or private buffers) meanwhile.
     *
     * @throws RmaException RANK, TAG, COUNT for bad arguments; OTHER after {@link #close()}.
     */
    public void send(final MemorySegment buffer, final int dest, final int tag) {
        // NOTE: the common case, a short message with room for it at dest, goes out at once without a request
        // (isend's checks first, the same ones); the rest is isend and await.
        checkSend("send", buffer, dest, tag);
        if (dest == Rma.PROC_NULL || !engine.sendNow(buffer, dest, MessagingEngine.USER_CONTEXT, tag)) {
            isend(buffer, dest, tag).await();
        }
    }

    /**
     * MPI_RECV: receives the oldest matching message into {@code buffer}.
     *
     * @param source a rank, {@link Rma#ANY_SOURCE} or {@link Rma#PROC_NULL}.
     * @param tag    0..{@link #TAG_UB} or {@link Rma#ANY_TAG}.
     * @throws RmaException COUNT if the message is longer than the buffer (the message is consumed, the
     *                      buffer unchanged); RANK, TAG for bad arguments; OTHER after {@link #close()}.
     */
    public MessageStatus recv(final MemorySegment buffer, final int source, final int tag) {
        // NOTE: the common case, a matching message that already arrived, is taken without a request (irecv's
        // checks first, the same ones); the rest posts a receive and waits (MessagingEngine#recvWaiting).
        checkRecv("recv", buffer, source, tag);
        if (source == Rma.PROC_NULL) {
            return irecv(buffer, source, tag).await();
        }
        final MessageStatus status = engine.recvNow(buffer, source, MessagingEngine.USER_CONTEXT, tag);
        return status != null ? status : engine.recvWaiting(buffer, source, MessagingEngine.USER_CONTEXT, tag);
    }

    /**
     * MPI_ISEND: starts a send; the buffer must not change until the request completes.
     *
     * @throws RmaException as {@link #send(MemorySegment, int, int)}.
     */
    public MessageRequest isend(final MemorySegment buffer, final int dest, final int tag) {
        checkSend("isend", buffer, dest, tag);
        if (dest == Rma.PROC_NULL) {
            final MessageRequest request = MessageRequest.send(engine, buffer, dest, MessagingEngine.USER_CONTEXT, tag);
            request.completeSend(rank, 0);
            return request;
        }
        return engine.isend(buffer, dest, MessagingEngine.USER_CONTEXT, tag);
    }

    private void checkRecv(final String call, final MemorySegment buffer, final int source, final int tag) {
        checkOpen(call);
        Objects.requireNonNull(buffer, "buffer");
        if (source != Rma.ANY_SOURCE && source != Rma.PROC_NULL) {
            checkRank(call + " source", source);
        }
        if (tag != Rma.ANY_TAG && (tag < 0 || tag > TAG_UB)) {
            throw new RmaException(ErrorClass.TAG, call + " tag=" + tag + " is neither ANY_TAG nor in 0.." + TAG_UB);
        }
    }

    private void checkSend(final String call, final MemorySegment buffer, final int dest, final int tag) {
        checkOpen(call);
        Objects.requireNonNull(buffer, "buffer");
        if (dest != Rma.PROC_NULL) {
            checkRank(call + " dest", dest);
        }
        if (tag < 0 || tag > TAG_UB) {
            throw new RmaException(ErrorClass.TAG, call + " tag=" + tag + " is outside 0.." + TAG_UB);
        }
        if (buffer.byteSize() > MAX_MESSAGE_BYTES) {
            throw new RmaException(ErrorClass.COUNT, call + " of " + buffer.byteSize() + " bytes exceeds the longest"
                + " message, " + MAX_MESSAGE_BYTES + " bytes");
        }
    }

    /**
     * MPI_IRECV: posts a receive; the buffer must not be touched until the request completes.
     *
     * @throws RmaException RANK, TAG for bad arguments; OTHER after {@link #close()}. A message too long
     *                      for the buffer fails the request (COUNT, thrown when its completion is
     *                      reported).
     */
    public MessageRequest irecv(final MemorySegment buffer, final int source, final int tag) {
        checkRecv("irecv", buffer, source, tag);
        if (source == Rma.PROC_NULL) {
            final MessageRequest request = MessageRequest.recv(engine, buffer, source, MessagingEngine.USER_CONTEXT,
                tag);
            request.complete(new MessageStatus(Rma.PROC_NULL, Rma.ANY_TAG, 0));
            return request;
        }
        return engine.irecv(buffer, source, MessagingEngine.USER_CONTEXT, tag);
    }

    /** {@link #send(MemorySegment, int, int)} of {@code len} longs of {@code a} from {@code off}. */
    public void send(final long[] a, final int off, final int len, final int dest, final int tag) {
        send(ACCESS.slice(MemorySegment.ofArray(a), off, len, Long.BYTES), dest, tag);
    }

    /**
     * {@link #recv(MemorySegment, int, int)} into {@code len} longs of {@code a} from {@code off}; the
     * status length is in bytes.
     */
    public MessageStatus recv(final long[] a, final int off, final int len, final int source, final int tag) {
        return recv(ACCESS.slice(MemorySegment.ofArray(a), off, len, Long.BYTES), source, tag);
    }

    /** {@link #send(MemorySegment, int, int)} of {@code len} doubles of {@code a} from {@code off}. */
    public void send(final double[] a, final int off, final int len, final int dest, final int tag) {
        send(ACCESS.slice(MemorySegment.ofArray(a), off, len, Double.BYTES), dest, tag);
    }

    /**
     * {@link #recv(MemorySegment, int, int)} into {@code len} doubles of {@code a} from {@code off}; the
     * status length is in bytes.
     */
    public MessageStatus recv(final double[] a, final int off, final int len, final int source, final int tag) {
        return recv(ACCESS.slice(MemorySegment.ofArray(a), off, len, Double.BYTES), source, tag);
    }

    // ---------------------------------------------------------------- collectives

    /**
     * MPI_BARRIER, collective: returns after every rank has called it; stores before it at any rank are
     * seen by loads after it at every rank (the messages' notifications order them).
     */
    public void barrier() {
        checkOpen("barrier");
        collectives.barrier();
    }

    /**
     * MPI_BCAST, collective: the root's {@code buffer} is copied into every other rank's, along a
     * binomial tree. Every rank passes a buffer of the same size.
     *
     * @throws RmaException RANK for a bad root (checked before anything is sent); COUNT at a rank whose
     *                      buffer differs in size from the root's, which still completes its part of the
     *                      tree: its subtree throws OTHER naming it, the other ranks return, and the next
     *                      collective call matches at every rank; OTHER if the ranks' collective calls
     *                      do not match.
     */
    public void bcast(final MemorySegment buffer, final int root) {
        checkOpen("bcast");
        Objects.requireNonNull(buffer, "buffer");
        checkRank("bcast root", root);
        if (buffer.byteSize() > MAX_MESSAGE_BYTES) {
            throw new RmaException(ErrorClass.COUNT, "bcast of " + buffer.byteSize() + " bytes exceeds the longest"
                + " message, " + MAX_MESSAGE_BYTES + " bytes");
        }
        collectives.bcast(buffer, root);
    }

    /**
     * MPI_REDUCE, collective: combines the {@code count} elements of {@code type} in every rank's
     * {@code send} with {@code op}, element by element, into the root's {@code recv} (ignored, and may
     * be null, at other ranks), along a binomial tree. The predefined ops are treated as commutative, so
     * floating-point sums may differ in their last bits from a left-to-right sum in rank order.
     *
     * @param type a basic type or a contiguous type built from one.
     * @throws RmaException TYPE for a null or non-contiguous type; OP for REPLACE, NO_OP or an op the
     *                      type does not accept; COUNT for a negative count or a buffer too small; RANK
     *                      for a bad root (all checked before anything is sent). COUNT or OTHER on the path
     *                      from a rank whose count differs to the root (the protocol completes; the next
     *                      call matches); OTHER if the ranks' collective calls do not match.
     */
    public void reduce(final MemorySegment send, final MemorySegment recv, final long count, final Datatype type,
        final Op op, final int root) {
        checkOpen("reduce");
        checkRank("reduce root", root);
        final long bytes = checkReduction("reduce", send, count, type, op);
        if (rank == root) {
            checkResultBuffer("reduce", recv, bytes);
        }
        collectives.reduce(send, recv, bytes, type, op, root);
    }

    /**
     * MPI_ALLREDUCE, collective: {@link #reduce} whose result arrives in every rank's {@code recv}.
     *
     * @throws RmaException as {@link #reduce}; when the reduction fails at any rank (counts differ), every
     *                      rank throws.
     */
    public void allreduce(final MemorySegment send, final MemorySegment recv, final long count, final Datatype type,
        final Op op) {
        checkOpen("allreduce");
        final long bytes = checkReduction("allreduce", send, count, type, op);
        checkResultBuffer("allreduce", recv, bytes);
        collectives.allreduce(send, recv, bytes, type, op);
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * Collective: waits until this rank's sends have finished (their data read by the receivers), tells
     * every rank it closes and waits until all have, then frees the window. Pending receives fail,
     * unreceived messages are dropped; every later call raises OTHER. Idempotent.
     *
     * <p>A receive of another rank that only this rank could match (its source is this rank) fails as soon
     * as this rank's close message arrives, instead of waiting for a message that will never come.
     * After a call of this object or of the job failed out of step with the peers (a peer failed, a
     * wait timed out, collective calls did not match) it abandons the job instead (see {@link RmaJob}):
     * no collective call is made and the peers' blocking calls throw naming this rank.
     */
    @Override
    public void close() {
        if (engine.isClosed()) {
            return;
        }
        if (job.isClosed()) {
            engine.close();
            return;
        }
        final Throwable failure = engine.failure() != null ? engine.failure() : ACCESS.failure(job);
        if (failure != null) {
            engine.close();
            ACCESS.abandon(job, failure);
            return;
        }
        try {
            engine.waitUntil(engine::sendsFinished);
            collectives.close();
        } catch (final RuntimeException e) {
            engine.close();
            ACCESS.abandon(job, e);
            throw e;
        }
        engine.close();
        window.free();
    }

    @Override
    public String toString() {
        return "Messaging{rank=" + rank + "/" + size + (engine.isClosed() ? ", closed" : "") + '}';
    }

    /**
     * @return the protocol engine (package-private: for tests in this package).
     */
    MessagingEngine engine() {
        return engine;
    }

    // ---------------------------------------------------------------- checks

    private void checkOpen(final String call) {
        engine.checkOpen(call);
    }

    private void checkRank(final String what, final int value) {
        if (value < 0 || value >= size) {
            throw new RmaException(ErrorClass.RANK, what + "=" + value + " is outside 0.." + (size - 1));
        }
    }

    /**
     * @return the bytes of {@code count} elements of {@code type}.
     */
    private static long checkReduction(final String call, final MemorySegment send, final long count,
        final Datatype type, final Op op) {
        if (type == null || !type.isContiguous()) {
            throw new RmaException(ErrorClass.TYPE, call + " datatype " + type + " must be a basic or contiguous type");
        }
        ACCESS.checkOp(call, op, type);
        if (op == Op.REPLACE || op == Op.NO_OP) {
            throw new RmaException(ErrorClass.OP,
                call + " op " + op.mpiName() + " is valid only in one-sided" + " accumulates");
        }
        if (count < 0) {
            throw new RmaException(ErrorClass.COUNT, call + " count=" + count + " is negative");
        }
        final long bytes;
        try {
            bytes = Math.multiplyExact(count, type.size());
        } catch (final ArithmeticException e) {
            throw new RmaException(ErrorClass.COUNT, call + " count=" + count + " x " + type + " overflows a long");
        }
        if (bytes > MAX_MESSAGE_BYTES) {
            throw new RmaException(ErrorClass.COUNT,
                call + " of " + bytes + " bytes exceeds the longest message, " + MAX_MESSAGE_BYTES + " bytes");
        }
        Objects.requireNonNull(send, "send");
        if (send.byteSize() < bytes) {
            throw new RmaException(ErrorClass.COUNT, call + " send buffer of " + send.byteSize() + " bytes is smaller"
                + " than " + count + " x " + type + " (" + bytes + " bytes)");
        }
        return bytes;
    }

    private static void checkResultBuffer(final String call, final MemorySegment recv, final long bytes) {
        Objects.requireNonNull(recv, "recv");
        if (recv.byteSize() < bytes) {
            throw new RmaException(ErrorClass.COUNT, call + " recv buffer of " + recv.byteSize() + " bytes is smaller"
                + " than the " + bytes + " bytes reduced");
        }
    }
}
