package org.rma4j.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * A communicator ({@code MPI_Comm}, MPI-3.1 chapter 6) and the calls made on it: its rank and size, new
 * communicators from it, collectives (chapter 5) and point-to-point communication (chapter 3). Ranks are
 * ranks of this communicator; {@link Mpi#ANY_SOURCE}, {@link Mpi#PROC_NULL} and {@link Mpi#ANY_TAG} are
 * translated to the implementation's values.
 *
 * <p>Buffers are native {@link MemorySegment}s that hold {@code count} elements of the datatype (checked
 * before the call: {@link MpiErrorClass#BUFFER}). Not thread-safe: one thread at a time (the thread level is
 * {@code MPI_THREAD_SERIALIZED}).
 */
public final class MpiComm {
    private long handle;
    private final boolean predefined;

    MpiComm(final long handle, final boolean predefined) {
        this.handle = handle;
        this.predefined = predefined;
    }

    /**
     * @return the implementation's handle ({@code MPI_COMM_NULL} once freed).
     */
    public long handle() {
        return handle;
    }

    /**
     * @return whether this is {@code MPI_COMM_NULL} (freed, or what a split with {@link Mpi#UNDEFINED} gives).
     */
    public boolean isNull() {
        return handle == Predefined.COMM_NULL;
    }

    /**
     * {@code MPI_Comm_rank}.
     */
    public int rank() {
        final Scratch scratch = Scratch.get();
        try {
            check((int)MpiNative.COMM_RANK.invokeExact(handle, scratch.int0), "MPI_Comm_rank", "");
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return scratch.int0();
    }

    /**
     * {@code MPI_Comm_size}.
     */
    public int size() {
        final Scratch scratch = Scratch.get();
        try {
            check((int)MpiNative.COMM_SIZE.invokeExact(handle, scratch.int0), "MPI_Comm_size", "");
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return scratch.int0();
    }

    /**
     * {@code MPI_Comm_dup} (collective).
     */
    public MpiComm dup() {
        final Scratch scratch = Scratch.get();
        try {
            check((int)MpiNative.COMM_DUP.invokeExact(handle, scratch.handle0), "MPI_Comm_dup", "");
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return new MpiComm(scratch.handle0(), false);
    }

    /**
     * {@code MPI_Comm_split} (collective).
     *
     * @return the communicator of the processes of the same color, ordered by key then rank; a null
     *         communicator ({@link #isNull()}) for {@link Mpi#UNDEFINED}.
     */
    public MpiComm split(final int color, final int key) {
        final Scratch scratch = Scratch.get();
        try {
            check((int)MpiNative.COMM_SPLIT.invokeExact(handle, Predefined.color(color), key, scratch.handle0),
                "MPI_Comm_split", "color=" + color + " key=" + key);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return new MpiComm(scratch.handle0(), false);
    }

    /**
     * {@code MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, key, MPI_INFO_NULL, &newcomm)} (collective): the
     * processes that can share memory with this one (its node), ordered by key then rank.
     */
    public MpiComm splitTypeShared(final int key) {
        final Scratch scratch = Scratch.get();
        try {
            check((int)MpiNative.COMM_SPLIT_TYPE.invokeExact(handle, Predefined.COMM_TYPE_SHARED, key,
                Predefined.INFO_NULL, scratch.handle0), "MPI_Comm_split_type", "MPI_COMM_TYPE_SHARED key=" + key);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return new MpiComm(scratch.handle0(), false);
    }

    /**
     * {@code MPI_Comm_group}.
     */
    public MpiGroup group() {
        final Scratch scratch = Scratch.get();
        try {
            check((int)MpiNative.COMM_GROUP.invokeExact(handle, scratch.handle0), "MPI_Comm_group", "");
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return new MpiGroup(scratch.handle0());
    }

    /**
     * {@code MPI_Comm_free} (collective). The predefined communicators cannot be freed
     * ({@link MpiErrorClass#COMM}).
     */
    public void free() {
        if (predefined) {
            throw Errors.binding(MpiErrorClass.COMM, "MPI_Comm_free", "a predefined communicator cannot be freed");
        }
        final Scratch scratch = Scratch.get();
        scratch.handle0(handle);
        try {
            check((int)MpiNative.COMM_FREE.invokeExact(scratch.handle0), "MPI_Comm_free", "");
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        handle = scratch.handle0();
    }

    /**
     * {@code MPI_Barrier}.
     */
    public void barrier() {
        try {
            check((int)MpiNative.BARRIER.invokeExact(handle), "MPI_Barrier", "");
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code MPI_Bcast}.
     */
    public void bcast(final MemorySegment buffer, final int count, final MpiDatatype type, final int root) {
        Errors.checkBuffer(buffer, count, type, "MPI_Bcast", "buffer");
        try {
            check((int)MpiNative.BCAST.invokeExact(buffer, count, type.handle(), root, handle), "MPI_Bcast",
                "count=" + count + " root=" + root);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code MPI_Allreduce}.
     */
    public void allreduce(final MemorySegment send, final MemorySegment receive, final int count,
        final MpiDatatype type, final MpiOp op) {
        Errors.checkBuffer(send, count, type, "MPI_Allreduce", "sendbuf");
        Errors.checkBuffer(receive, count, type, "MPI_Allreduce", "recvbuf");
        try {
            check((int)MpiNative.ALLREDUCE.invokeExact(send, receive, count, type.handle(), Predefined.op(op), handle),
                "MPI_Allreduce", "count=" + count + " op=" + op);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code MPI_Allreduce} of one {@code MPI_INT64_T}.
     */
    public long allreduce(final long value, final MpiOp op) {
        final Scratch scratch = Scratch.get();
        scratch.long0.set(ValueLayout.JAVA_LONG, 0, value);
        allreduce(scratch.long0, scratch.long1, 1, Predefined.type(MpiBasicType.INT64_T), op);
        return scratch.long1();
    }

    /**
     * {@code MPI_Allgather}.
     */
    public void allgather(final MemorySegment send, final int sendCount, final MpiDatatype sendType,
        final MemorySegment receive, final int receiveCount, final MpiDatatype receiveType) {
        Errors.checkBuffer(send, sendCount, sendType, "MPI_Allgather", "sendbuf");
        Errors.checkBuffer(receive, (long)receiveCount * size(), receiveType, "MPI_Allgather", "recvbuf");
        try {
            check(
                (int)MpiNative.ALLGATHER.invokeExact(send, sendCount, sendType.handle(), receive, receiveCount,
                    receiveType.handle(), handle),
                "MPI_Allgather", "sendcount=" + sendCount + " recvcount=" + receiveCount);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code MPI_Allgatherv}: rank i's elements arrive at {@code displacements[i]} elements of
     * {@code receive}.
     */
    public void allgatherv(final MemorySegment send, final int sendCount, final MpiDatatype sendType,
        final MemorySegment receive, final int[] receiveCounts, final int[] displacements,
        final MpiDatatype receiveType) {
        Errors.checkBuffer(send, sendCount, sendType, "MPI_Allgatherv", "sendbuf");
        checkVector("MPI_Allgatherv", receive, receiveCounts, displacements, receiveType);
        try (Arena arena = Arena.ofConfined()) {
            check(
                (int)MpiNative.ALLGATHERV.invokeExact(send, sendCount, sendType.handle(), receive,
                    arena.allocateFrom(ValueLayout.JAVA_INT, receiveCounts),
                    arena.allocateFrom(ValueLayout.JAVA_INT, displacements), receiveType.handle(), handle),
                "MPI_Allgatherv",
                "recvcounts=" + Arrays.toString(receiveCounts) + " displs=" + Arrays.toString(displacements));
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code MPI_Ibarrier} (MPI-3.1 section 5.12.1): the barrier as a request that completes once every member
     * has started it.
     */
    public MpiRequest ibarrier() {
        final Scratch scratch = Scratch.get();
        try {
            check((int)MpiNative.IBARRIER.invokeExact(handle, scratch.handle0), "MPI_Ibarrier", "");
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return new MpiRequest(scratch.handle0(), Predefined.type(MpiBasicType.BYTE), "MPI_Ibarrier");
    }

    /**
     * {@code MPI_Iallgather} (section 5.12.5). The buffers must stay valid until the request completes.
     */
    public MpiRequest iallgather(final MemorySegment send, final int sendCount, final MpiDatatype sendType,
        final MemorySegment receive, final int receiveCount, final MpiDatatype receiveType) {
        Errors.checkBuffer(send, sendCount, sendType, "MPI_Iallgather", "sendbuf");
        Errors.checkBuffer(receive, (long)receiveCount * size(), receiveType, "MPI_Iallgather", "recvbuf");
        final Scratch scratch = Scratch.get();
        try {
            check(
                (int)MpiNative.IALLGATHER.invokeExact(send, sendCount, sendType.handle(), receive, receiveCount,
                    receiveType.handle(), handle, scratch.handle0),
                "MPI_Iallgather", "sendcount=" + sendCount + " recvcount=" + receiveCount);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return new MpiRequest(scratch.handle0(), receiveType, "MPI_Iallgather");
    }

    /**
     * {@code MPI_Iallgatherv} (section 5.12.5): rank i's elements arrive at {@code displacements[i]} elements of
     * {@code receive}. The buffers must stay valid until the request completes; the counts are copied.
     */
    public MpiRequest iallgatherv(final MemorySegment send, final int sendCount, final MpiDatatype sendType,
        final MemorySegment receive, final int[] receiveCounts, final int[] displacements,
        final MpiDatatype receiveType) {
        Errors.checkBuffer(send, sendCount, sendType, "MPI_Iallgatherv", "sendbuf");
        checkVector("MPI_Iallgatherv", receive, receiveCounts, displacements, receiveType);
        final Scratch scratch = Scratch.get();
        final Arena arguments = Arena.ofShared();
        try {
            check(
                (int)MpiNative.IALLGATHERV.invokeExact(send, sendCount, sendType.handle(), receive,
                    arguments.allocateFrom(ValueLayout.JAVA_INT, receiveCounts),
                    arguments.allocateFrom(ValueLayout.JAVA_INT, displacements), receiveType.handle(), handle,
                    scratch.handle0),
                "MPI_Iallgatherv",
                "recvcounts=" + Arrays.toString(receiveCounts) + " displs=" + Arrays.toString(displacements));
        } catch (final Throwable t) {
            arguments.close();
            throw Errors.rethrow(t);
        }
        return new MpiRequest(scratch.handle0(), receiveType, "MPI_Iallgatherv", arguments);
    }

    /**
     * Checks the receive side of a v-collective: one count and displacement per member, a buffer that holds
     * every block.
     */
    private void checkVector(final String call, final MemorySegment receive, final int[] receiveCounts,
        final int[] displacements, final MpiDatatype receiveType) {
        long end = 0;
        for (int i = 0; i < Math.min(receiveCounts.length, displacements.length); i++) {
            end = Math.max(end, (long)displacements[i] + receiveCounts[i]);
        }
        Errors.checkBuffer(receive, end, receiveType, call, "recvbuf");
        final int size = size();
        if (receiveCounts.length != size || displacements.length != size) {
            throw Errors.binding(MpiErrorClass.COUNT, call, "recvcounts has " + receiveCounts.length + " and displs "
                + displacements.length + " entries for a communicator of " + size);
        }
    }

    /**
     * {@code MPI_Send}.
     */
    public void send(final MemorySegment buffer, final int count, final MpiDatatype type, final int dest,
        final int tag) {
        Errors.checkBuffer(buffer, count, type, "MPI_Send", "buf");
        try {
            check((int)MpiNative.SEND.invokeExact(buffer, count, type.handle(), Predefined.rank(dest), tag, handle),
                "MPI_Send", "count=" + count + " dest=" + dest + " tag=" + tag);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code MPI_Recv}.
     *
     * @return the status, its count in elements of {@code type}.
     */
    public MpiStatus recv(final MemorySegment buffer, final int count, final MpiDatatype type, final int source,
        final int tag) {
        Errors.checkBuffer(buffer, count, type, "MPI_Recv", "buf");
        final Scratch scratch = Scratch.get();
        try {
            check(
                (int)MpiNative.RECV.invokeExact(buffer, count, type.handle(), Predefined.rank(source),
                    Predefined.tag(tag), handle, scratch.status),
                "MPI_Recv", "count=" + count + " source=" + source + " tag=" + tag);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return MpiStatus.read(scratch.status, type);
    }

    /**
     * {@code MPI_Isend}.
     */
    public MpiRequest isend(final MemorySegment buffer, final int count, final MpiDatatype type, final int dest,
        final int tag) {
        Errors.checkBuffer(buffer, count, type, "MPI_Isend", "buf");
        final Scratch scratch = Scratch.get();
        try {
            check((int)MpiNative.ISEND.invokeExact(buffer, count, type.handle(), Predefined.rank(dest), tag, handle,
                scratch.handle0), "MPI_Isend", "count=" + count + " dest=" + dest + " tag=" + tag);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return new MpiRequest(scratch.handle0(), type, "MPI_Isend");
    }

    /**
     * {@code MPI_Irecv}.
     */
    public MpiRequest irecv(final MemorySegment buffer, final int count, final MpiDatatype type, final int source,
        final int tag) {
        Errors.checkBuffer(buffer, count, type, "MPI_Irecv", "buf");
        final Scratch scratch = Scratch.get();
        try {
            check(
                (int)MpiNative.IRECV.invokeExact(buffer, count, type.handle(), Predefined.rank(source),
                    Predefined.tag(tag), handle, scratch.handle0),
                "MPI_Irecv", "count=" + count + " source=" + source + " tag=" + tag);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return new MpiRequest(scratch.handle0(), type, "MPI_Irecv");
    }

    /**
     * {@code MPI_Iprobe}.
     *
     * @return the status of a matching message (count in bytes), or null if none has arrived.
     */
    public MpiStatus iprobe(final int source, final int tag) {
        final Scratch scratch = Scratch.get();
        try {
            check((int)MpiNative.IPROBE.invokeExact(Predefined.rank(source), Predefined.tag(tag), handle, scratch.int0,
                scratch.status), "MPI_Iprobe", "source=" + source + " tag=" + tag);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        return scratch.int0() == 0 ? null : MpiStatus.read(scratch.status, Predefined.type(MpiBasicType.BYTE));
    }

    @Override
    public String toString() {
        return "MpiComm[0x" + Long.toHexString(handle) + "]";
    }

    static void check(final int rc, final String call, final String details) {
        if (rc != 0) {
            throw Errors.of(rc, call, details);
        }
    }
}
