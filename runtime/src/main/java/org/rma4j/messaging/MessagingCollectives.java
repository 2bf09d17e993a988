package org.rma4j.messaging;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.rma4j.Datatype;
import org.rma4j.ErrorClass;
import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.RmaException;
import org.rma4j.internal.AtomicElements;

/**
 * The collectives of {@link Messaging}, built from its point-to-point messages in the collective
 * context (user receives, even with wildcards, never match them):
 * <ul>
 *   <li>barrier: dissemination (Hensgen, Finkel and Manber, 1988): in round k each rank sends an
 *   empty message to rank + 2^k and receives one from rank - 2^k, ceil(log2 n) rounds;</li>
 *   <li>bcast: binomial tree rooted at the root: a rank receives from its parent, then sends to its
 *   children, largest subtree first;</li>
 *   <li>reduce: the same tree upside down: a rank combines its children's partial results into its
 *   own, lowest relative rank on the left, and sends the result to its parent;</li>
 *   <li>allreduce: reduce to rank 0, then bcast from it;</li>
 *   <li>close: every rank sends an empty message to every other and receives one from each.</li>
 * </ul>
 *
 * <h2>Matching calls</h2>
 * Every collective call takes the next sequence number of its Messaging object, and every message it
 * sends carries the call's kind and number in its tag (below). A rank receives a collective's messages
 * from a source with any collective tag and compares the tag with its own call: messages between two
 * ranks arrive in the order sent, so when the ranks make the same calls the next collective message
 * from a source is always the one the current call expects. Anything else (another kind, another
 * number, a longer message than a barrier's) is a mismatch: an {@link RmaException} naming both calls
 * and the source, after which the object's collective calls throw at once and closing it abandons the
 * job, so every member ends with a named error.
 *
 * <h2>Failures inside a collective</h2>
 * A call that fails at one rank after it started still completes the protocol for the others: where
 * it would send data it sends an empty message with the error bit, and a rank that receives one
 * forwards the error the same way and throws once its part is done. bcast: the failing rank's subtree
 * throws, the other ranks return; reduce: the ranks on the path to the root throw; allreduce: every
 * rank throws (the root broadcasts the failure). The ranks' next collective calls match again.
 *
 * <p>Collective tag (below the context bit): bit 29 error, bits 28..26 kind, bits 25..0 sequence
 * number modulo 2^26.
 */
final class MessagingCollectives {
    /** Kinds of collective calls, as carried in the tag. */
    enum Kind {
        BARRIER(1, "barrier"), BCAST(2, "bcast"), REDUCE(3, "reduce"), CLOSE(4, "Messaging.close");

        /** The kind's code in a wire tag (1..KIND_MASK): explicit, never the ordinal. */
        private final int code;
        private final String callName;

        Kind(final int code, final String callName) {
            this.code = code;
            this.callName = callName;
        }
    }

    private static final int CONTEXT = MessagingEngine.COLLECTIVE_CONTEXT;
    private static final int ERROR_BIT = 1 << 29;
    private static final int KIND_SHIFT = 26;
    private static final int KIND_MASK = 7;
    private static final int SEQUENCE_MASK = (1 << KIND_SHIFT) - 1;
    private static final Kind[] KINDS = Kind.values();

    private final MessagingEngine engine;
    private final int rank;
    private final int ranks;
    private int sequence;

    MessagingCollectives(final MessagingEngine engine, final int rank, final int ranks) {
        this.engine = engine;
        this.rank = rank;
        this.ranks = ranks;
    }

    /**
     * @return whether a collective wire tag is that of {@link Kind#CLOSE}.
     */
    static boolean isClose(final int wireTag) {
        return (wireTag >>> KIND_SHIFT & KIND_MASK) == Kind.CLOSE.code;
    }

    void barrier() {
        final int tag = begin(Kind.BARRIER);
        for (int distance = 1; distance < ranks; distance <<= 1) {
            final int source = (rank - distance + ranks) % ranks;
            final MessageRequest sent = engine.isend(MemorySegment.NULL, (rank + distance) % ranks, CONTEXT, tag);
            final MessageRequest received = engine.irecv(MemorySegment.NULL, source, CONTEXT, Rma.ANY_TAG);
            waitAll(List.of(sent), tag);
            expect(received, source, tag);
        }
    }

    /**
     * Every rank tells every other that it closes, and waits for all: a user receive from a rank that is
     * closing then fails at once (see {@link MessagingEngine}).
     */
    void close() {
        final int tag = begin(Kind.CLOSE);
        final List<MessageRequest> sends = new ArrayList<>();
        final MessageRequest[] receives = new MessageRequest[ranks];
        for (int peer = 0; peer < ranks; peer++) {
            if (peer != rank) {
                sends.add(engine.isend(MemorySegment.NULL, peer, CONTEXT, tag));
                receives[peer] = engine.irecv(MemorySegment.NULL, peer, CONTEXT, Rma.ANY_TAG);
            }
        }
        waitAll(sends, tag);
        for (int peer = 0; peer < ranks; peer++) {
            if (peer != rank) {
                expect(receives[peer], peer, tag);
            }
        }
    }

    void bcast(final MemorySegment buffer, final int root) {
        bcast(buffer, root, null);
    }

    /**
     * @param rootError at the root: a failure to broadcast instead of the data (every other rank then
     *                  throws); ignored elsewhere.
     */
    private void bcast(final MemorySegment buffer, final int root, final RmaException rootError) {
        final int tag = begin(Kind.BCAST);
        final int relative = (rank - root + ranks) % ranks;
        RmaException error = rank == root ? rootError : null;
        int mask = 1;
        while (mask < ranks) {
            if ((relative & mask) != 0) {
                final int parent = (relative - mask + root) % ranks;
                final Received received = receive(buffer, parent, tag);
                if (received.error != null) {
                    error = received.error;
                } else if (received.length != buffer.byteSize()) {
                    error = new RmaException(ErrorClass.COUNT,
                        "bcast #" + sequence + " at rank " + rank + ": the root's buffer has " + received.length
                            + " bytes, this rank's " + buffer.byteSize() + "; every rank"
                            + " must pass a buffer of the same size");
                }
                break;
            }
            mask <<= 1;
        }
        final List<MessageRequest> sends = new ArrayList<>();
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (relative + mask < ranks) {
                final int child = (relative + mask + root) % ranks;
                sends.add(error != null
                    ? engine.isend(MemorySegment.NULL, child, CONTEXT, tag | ERROR_BIT)
                    : engine.isend(buffer, child, CONTEXT, tag));
            }
        }
        waitAll(sends, tag);
        if (error != null) {
            throw error;
        }
    }

    /**
     * @param bytes count x type size, checked by the caller against both buffers.
     */
    void reduce(final MemorySegment send, final MemorySegment recv, final long bytes, final Datatype type, final Op op,
        final int root) {
        final int tag = begin(Kind.REDUCE);
        final int relative = (rank - root + ranks) % ranks;
        RmaException error = null;
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment accumulated = arena.allocate(Math.max(bytes, 1), Long.BYTES).asSlice(0, bytes);
            MemorySegment.copy(send, 0, accumulated, 0, bytes);
            MemorySegment partial = null;
            for (int mask = 1; mask < ranks; mask <<= 1) {
                if ((relative & mask) != 0) {
                    final int parent = (relative - mask + root) % ranks;
                    waitAll(List.of(error == null
                        ? engine.isend(accumulated, parent, CONTEXT, tag)
                        : engine.isend(MemorySegment.NULL, parent, CONTEXT, tag | ERROR_BIT)), tag);
                    break;
                }
                if (relative + mask < ranks) {
                    if (partial == null) {
                        partial = arena.allocate(Math.max(bytes, 1), Long.BYTES).asSlice(0, bytes);
                    }
                    final int child = (relative + mask + root) % ranks;
                    final Received received = receive(partial, child, tag);
                    if (error != null) {
                        continue;
                    }
                    if (received.error != null) {
                        error = received.error;
                    } else if (received.length != bytes) {
                        error = new RmaException(ErrorClass.COUNT,
                            "reduce #" + sequence + ": rank " + child + "'s subtree contributed " + received.length
                                + " bytes, rank " + rank + " " + bytes
                                + "; every rank must reduce the same count and type");
                    } else {
                        combine(accumulated, partial, bytes, type.basic(), op);
                    }
                }
            }
            if (error != null) {
                throw error;
            }
            if (rank == root) {
                MemorySegment.copy(accumulated, 0, recv, 0, bytes);
            }
        }
    }

    void allreduce(final MemorySegment send, final MemorySegment recv, final long bytes, final Datatype type,
        final Op op) {
        RmaException error = null;
        try {
            reduce(send, recv, bytes, type, op, 0);
        } catch (final RmaException e) {
            if (engine.failure() != null) {
                throw e;
            }
            error = e;
        }
        try {
            bcast(recv.asSlice(0, bytes), 0, error);
        } catch (final RmaException e) {
            if (error == null) {
                throw e;
            }
        }
        if (error != null) {
            throw error;
        }
    }

    /**
     * {@code into[i] = op(into[i], from[i])} element by element.
     */
    static void combine(final MemorySegment into, final MemorySegment from, final long bytes,
        final Datatype.Basic basic, final Op op) {
        final int size = basic.bytes();
        for (long offset = 0; offset < bytes; offset += size) {
            AtomicElements.write(basic, into, offset, AtomicElements.apply(op, basic,
                AtomicElements.read(basic, into, offset), AtomicElements.read(basic, from, offset)));
        }
    }

    // ---------------------------------------------------------------- matching

    /**
     * What a collective receive got: the message's length, or the failure it reports (or that receiving
     * it caused: a message longer than the buffer).
     */
    private record Received(long length, RmaException error) {
    }

    /**
     * Starts a collective call of {@code kind}.
     *
     * @return its tag.
     * @throws RmaException OTHER if an earlier call of this object failed out of step with its peers.
     */
    private int begin(final Kind kind) {
        final RuntimeException failure = engine.failure();
        if (failure != null) {
            throw new RmaException(ErrorClass.OTHER, kind.callName + " at rank " + rank + " on a Messaging object whose"
                + " earlier call failed out of step with its peers (" + failure.getMessage() + ")");
        }
        sequence++;
        return CONTEXT | kind.code << KIND_SHIFT | sequence & SEQUENCE_MASK;
    }

    /**
     * Receives the current call's message from {@code source} into {@code buffer}.
     */
    private Received receive(final MemorySegment buffer, final int source, final int tag) {
        final MessageRequest request = engine.irecv(buffer, source, CONTEXT, Rma.ANY_TAG);
        final MessageStatus status;
        try {
            status = request.await();
        } catch (final RmaException e) {
            if (engine.failure() != null || e.errorClass() != ErrorClass.COUNT) {
                throw e;
            }
            // Longer than the buffer: the message is consumed (the protocol goes on) and the call fails here.
            return new Received(-1,
                new RmaException(ErrorClass.COUNT, describe(tag) + " at rank " + rank + ": " + e.getMessage()));
        }
        final int got = CONTEXT | status.tag();
        if ((got & ~ERROR_BIT) != tag) {
            throw mismatch(tag, source, got);
        }
        if ((got & ERROR_BIT) != 0) {
            return new Received(0, new RmaException(ErrorClass.OTHER, describe(tag) + " failed at rank " + source
                + " or before it in the tree; rank " + rank + " completed its part"));
        }
        return new Received(status.length(), null);
    }

    /**
     * Checks an empty message of the current call (barrier, close): any other is a mismatch.
     */
    private void expect(final MessageRequest received, final int source, final int tag) {
        final MessageStatus status;
        try {
            status = received.await();
        } catch (final RmaException e) {
            if (engine.failure() != null || e.errorClass() != ErrorClass.COUNT) {
                throw e;
            }
            throw engine.fail(new RmaException(ErrorClass.OTHER,
                "Messaging collective calls do not match: rank " + rank + " is in " + describe(tag)
                    + " and received a message with data from rank " + source + " (" + e.getMessage() + ")"));
        }
        final int got = CONTEXT | status.tag();
        if (got != tag) {
            throw mismatch(tag, source, got);
        }
    }

    private void waitAll(final List<MessageRequest> sends, final int tag) {
        if (!sends.isEmpty()) {
            MessageRequest.waitAll(sends.toArray(MessageRequest[]::new));
        }
    }

    private RuntimeException mismatch(final int tag, final int source, final int got) {
        return engine.fail(new RmaException(ErrorClass.OTHER,
            "Messaging collective calls do not match: rank " + rank + " is in " + describe(tag) + ", rank " + source
                + " sent a message of " + describe(got & ~ERROR_BIT)
                + "; every rank must make the same collective calls in the same order"));
    }

    /**
     * @return e.g. {@code "bcast #3"}.
     */
    private static String describe(final int tag) {
        final int code = tag >>> KIND_SHIFT & KIND_MASK;
        String kind = "unknown call " + code;
        for (final Kind known : KINDS) {
            if (known.code == code) {
                kind = known.callName;
            }
        }
        return kind + " #" + (tag & SEQUENCE_MASK);
    }
}
