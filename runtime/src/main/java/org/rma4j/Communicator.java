package org.rma4j;

import java.lang.foreign.MemorySegment;

/**
 * A communicator (MPI_Comm, MPI-3.1 section 6.4): an ordered group of the job's ranks with collective
 * calls of its own. {@link RmaJob#world()} is MPI_COMM_WORLD; {@link #dup}, {@link #split},
 * {@link #splitShared}, {@link #create(Group)} and {@link #cartCreate} make others.
 *
 * <h2>Ranks and groups</h2>
 * A member's rank is its position in the communicator, 0..{@link #size()}-1; ranks passed to the calls
 * of the communicator and of its windows are such ranks. A {@link Group} names processes by job rank
 * (the world's ranks): {@link #group()} lists the members' job ranks in communicator order.
 *
 * <h2>Collective calls</h2>
 * Every member makes the communicator's collective calls (barrier, the data collectives, window
 * creation and the windows' fence and free, communicator creation and {@link #free()}) in the same
 * order; only members take part, so disjoint communicators never wait for each other. Each call carries
 * its kind and a sequence number of the communicator that the members compare: calls that do not match
 * end with an {@link RmaException} naming both calls and ranks. Waiting members sleep
 * ({@code WaitStrategy}) instead of spinning while others are scheduled.
 *
 * <h2>Failures</h2>
 * A blocking call on a communicator throws {@link RankFailedException} when a member fails meanwhile
 * (its {@code rank()} is the failed member's job rank); communicators without that rank go on. A
 * collective call that failed after it communicated leaves this rank out of step on the communicator:
 * its later collective calls on it throw at once (on the world, any such failure of the rank does, and
 * the job abandons instead of closing; see {@link RmaJob}). A call that throws for a bad argument
 * throws at every member, changes nothing, and leaves the communicator in step.
 *
 * <h2>The null communicator</h2>
 * MPI_COMM_NULL is {@code null}: {@link #split} with {@link Rma#UNDEFINED}, {@link #create(Group)} at a
 * non-member and {@link #cartCreate} at a rank outside the grid return null.
 *
 * <h2>Threads and overlap</h2>
 * A communicator handle belongs to its rank; one thread at a time makes its collective calls. Collective
 * calls on different communicators may run at once in different threads of a rank. That is rma4j's way
 * to overlap a collective with other work: it has no nonblocking collectives (MPI_IBARRIER, MPI_IALLREDUCE,
 * ...), because every collective runs its exchange rounds in the calling thread (a nonblocking one would
 * need a progress agent, a thread that competes with the ranks for cores when there are more ranks than
 * cores); call the blocking collective on a {@link #dup} from a thread of your own instead.
 */
public class Communicator {
    private final CommContext context;
    private boolean freed;

    Communicator(final CommContext context) {
        this.context = context;
    }

    // ---------------------------------------------------------------- attributes (section 6.4.1)

    /** @return MPI_COMM_RANK: this process's rank in the communicator. */
    public int rank() {
        return context.rank();
    }

    /** @return MPI_COMM_SIZE. */
    public int size() {
        return context.size();
    }

    /** @return MPI_COMM_GROUP: the members' job ranks, in communicator order. */
    public Group group() {
        return Group.of(context.members());
    }

    /**
     * MPI_COMM_COMPARE (MPI-3.1 section 6.4.1).
     *
     * @return IDENT for the same communicator, CONGRUENT for another with the same members in the same
     *         order, SIMILAR for the same members in another order, UNEQUAL otherwise.
     * @throws RmaException COMM for null (MPI_COMM_NULL).
     */
    public Comparison compare(final Communicator other) {
        if (other == null) {
            throw new RmaException(ErrorClass.COMM, "compare with a null communicator (MPI_COMM_NULL)");
        }
        if (other.context == context) {
            return Comparison.IDENT;
        }
        final Comparison groups = Comparison.ofMembers(context.members(), other.context.members());
        return groups == Comparison.IDENT ? Comparison.CONGRUENT : groups;
    }

    /** @return whether {@link #free()} was called. */
    public boolean isFreed() {
        return freed;
    }

    // ---------------------------------------------------------------- constructors (section 6.4.2)

    /**
     * MPI_COMM_DUP: collective; a communicator of the same members in the same order whose collective
     * calls, windows and Messaging layers never meet this one's.
     */
    public Communicator dup() {
        final CommContext made = CommCreation.split(usable("dup"), "dup", 0, rank(), 0, null);
        return new Communicator(made);
    }

    /**
     * MPI_COMM_SPLIT: collective; the members that pass the same {@code color} form a new communicator,
     * ranked by {@code key}, ties broken by their rank here.
     *
     * @param color a non-negative color, or {@link Rma#UNDEFINED} to join none.
     * @return this rank's new communicator, or null for {@link Rma#UNDEFINED} (MPI_COMM_NULL).
     * @throws RmaException ARG at every member if a member passed a negative color.
     */
    public Communicator split(final int color, final int key) {
        final RmaException error = color < 0 && color != Rma.UNDEFINED
            ? new RmaException(ErrorClass.ARG, "split color=" + color + " is negative and not Rma.UNDEFINED")
            : null;
        final CommContext made = CommCreation.split(usable("split"), "split", color, key, 0, error);
        return made == null ? null : new Communicator(made);
    }

    /**
     * MPI_COMM_SPLIT_TYPE with MPI_COMM_TYPE_SHARED: collective; the members that can map each other's
     * memory (those of this rank's node), ranked by {@code key}. Under {@code rmarun} that is every member;
     * in a job across nodes, one communicator per node.
     */
    public Communicator splitShared(final int key) {
        final CommContext own = usable("splitShared");
        // MPI_COMM_TYPE_SHARED: the ranks of this rank's node, one color per node.
        return new Communicator(
            CommCreation.split(own, "splitShared", own.job().nodeOf(own.job().rank()), key, 0, null));
    }

    /**
     * MPI_COMM_CREATE: collective; the members of {@code group} (a subset of this communicator's group,
     * the same at every member) form a new communicator, ranked as in the group.
     *
     * @return the new communicator, or null at a rank outside the group (MPI_COMM_NULL).
     * @throws RmaException GROUP at every member if a member passed a null group or one with a process
     *                      outside this communicator; ARG if the members passed different groups.
     */
    public Communicator create(final Group group) {
        RmaException error = null;
        if (group == null) {
            error = new RmaException(ErrorClass.GROUP, "create group is null (use Group.EMPTY)");
        } else {
            for (final int member : group.members()) {
                if (indexOf(context.members(), member) < 0) {
                    error = new RmaException(ErrorClass.GROUP,
                        "create group member " + member + " is not a process of " + this);
                    break;
                }
            }
        }
        final int position = group == null ? -1 : group.indexOf(context.jobRank(context.rank()));
        final int color = position >= 0 ? 0 : Rma.UNDEFINED;
        final long digest = group == null ? 0 : group.hashCode();
        final CommContext made = CommCreation.split(usable("create"), "create", color, position, digest, error);
        return made == null ? null : new Communicator(made);
    }

    /**
     * MPI_CART_CREATE (MPI-3.1 section 7.5.1): collective; the first {@code product(dims)} ranks form a
     * Cartesian communicator, in row-major order (rma4j never reorders: every rank is as close to every
     * other as memory of one node allows).
     *
     * @return the Cartesian communicator, or null at a rank outside the grid (MPI_COMM_NULL).
     * @throws RmaException DIMS for a non-positive extent, ARG for periods of another length or arguments
     *                      that differ between members, TOPOLOGY for a grid larger than the communicator.
     */
    public CartCommunicator cartCreate(final int[] dims, final boolean[] periods, final boolean reorder) {
        CartTopology grid = null;
        RmaException error = null;
        try {
            grid = CartTopology.of("cartCreate", dims, periods, size());
        } catch (final RmaException e) {
            error = e;
        }
        final int color = grid != null && rank() < grid.cells() ? 0 : Rma.UNDEFINED;
        final CommContext made = CommCreation.split(usable("cartCreate"), "cartCreate", error == null ? color : 0,
            rank(), grid == null ? 0 : grid.digest(), error);
        return made == null ? null : new CartCommunicator(made, grid);
    }

    /**
     * MPI_COMM_FREE: collective; this handle can no longer be used. Windows and Messaging layers made over
     * the communicator stay usable until they are freed (MPI-3.1 section 6.4.3); the communicator's
     * shared memory goes with the last of them.
     *
     * @throws RmaException COMM for the world or a freed communicator.
     */
    public void free() {
        final CommContext own = usable("free");
        if (own.isWorld()) {
            throw new RmaException(ErrorClass.COMM, "free of the world communicator (MPI_COMM_WORLD)");
        }
        own.collective(CollectiveCalls.Kind.COMM_FREE, 0, own.barrierWait());
        freed = true;
        own.release();
    }

    // ---------------------------------------------------------------- windows (section 11.2)

    /**
     * MPI_WIN_ALLOCATE_SHARED over this communicator (see {@link RmaJob#allocateShared}); the window's
     * ranks are this communicator's.
     */
    public Window allocateShared(final long sizeBytes, final int dispUnit, final Info info) {
        return WindowCreation.allocateShared(usable("allocateShared"), sizeBytes, dispUnit, info);
    }

    /** {@link #allocateShared(long, int, Info)} with no hints. */
    public Window allocateShared(final long sizeBytes, final int dispUnit) {
        return allocateShared(sizeBytes, dispUnit, null);
    }

    /** MPI_WIN_ALLOCATE over this communicator (see {@link RmaJob#allocate}). */
    public Window allocate(final long sizeBytes, final int dispUnit, final Info info) {
        return WindowCreation.create(usable("allocate"), WindowFlavor.ALLOCATE, "allocate", sizeBytes, dispUnit, info,
            null);
    }

    /** {@link #allocate(long, int, Info)} with no hints. */
    public Window allocate(final long sizeBytes, final int dispUnit) {
        return allocate(sizeBytes, dispUnit, null);
    }

    /** MPI_WIN_CREATE over this communicator (see {@link RmaJob#create}). */
    public Window create(final MemorySegment base, final int dispUnit, final Info info) {
        final MemorySegment memory = base == null ? MemorySegment.NULL : base;
        return WindowCreation.create(usable("create"), WindowFlavor.CREATE, "create", memory.byteSize(), dispUnit, info,
            memory);
    }

    /** MPI_WIN_CREATE_DYNAMIC over this communicator (see {@link RmaJob#createDynamic}). */
    public Window createDynamic(final Info info) {
        return WindowCreation.create(usable("createDynamic"), WindowFlavor.DYNAMIC, "createDynamic", 0, 1, info, null);
    }

    // ---------------------------------------------------------------- collectives (chapter 5)

    /**
     * MPI_BARRIER (section 5.3): blocks until every member has called it; every store made before it is
     * seen after it.
     *
     * @throws RankFailedException if a member fails or leaves while others wait.
     */
    public void barrier() {
        final CommContext own = usable("barrier");
        final var barrierEvent = WindowCounters.begin(WindowCounters.BARRIER);
        own.collective(CollectiveCalls.Kind.BARRIER, 0, own.barrierWait());
        WindowCounters.endOnJob(barrierEvent, own.job().rank(), "barrier");
    }

    /** MPI_BCAST (section 5.4): the root's {@code buffer} into every member's (all of the same length). */
    public void bcast(final MemorySegment buffer, final int root) {
        DataCollectives.bcast(usable("bcast"), buffer, root);
    }

    /**
     * MPI_GATHER (section 5.5): every member's {@code send} (all of the same length b) into the root's
     * {@code recv} at rank * b; {@code recv} is used at the root only.
     */
    public void gather(final MemorySegment send, final MemorySegment recv, final int root) {
        DataCollectives.gather(usable("gather"), send, recv, root);
    }

    /**
     * MPI_GATHERV (section 5.5): member m's {@code send} (whole elements of {@code type}) into the root's
     * {@code recv} at {@code displs[m]} elements, where it must hold {@code recvCounts[m]} elements; the
     * counts, displacements and {@code recv} are used at the root only.
     */
    public void gatherv(final MemorySegment send, final MemorySegment recv, final int[] recvCounts, final int[] displs,
        final Datatype type, final int root) {
        DataCollectives.gatherv(usable("gatherv"), send, recv, recvCounts, displs, type, root);
    }

    /** MPI_SCATTER (section 5.6): block m of the root's {@code send} (size blocks of recv's length) to m. */
    public void scatter(final MemorySegment send, final MemorySegment recv, final int root) {
        DataCollectives.scatter(usable("scatter"), send, recv, root);
    }

    /**
     * MPI_SCATTERV (section 5.6): {@code sendCounts[m]} elements of the root's {@code send} at
     * {@code displs[m]} to member m's {@code recv}, which must hold them; only the root passes send,
     * counts and displacements.
     */
    public void scatterv(final MemorySegment send, final int[] sendCounts, final int[] displs, final Datatype type,
        final MemorySegment recv, final int root) {
        DataCollectives.scatterv(usable("scatterv"), send, sendCounts, displs, type, recv, root);
    }

    /** MPI_ALLGATHER (section 5.7): {@link #gather} to every member. */
    public void allgather(final MemorySegment send, final MemorySegment recv) {
        DataCollectives.allgather(usable("allgather"), send, recv);
    }

    /** MPI_ALLGATHERV (section 5.7): {@link #gatherv} to every member. */
    public void allgatherv(final MemorySegment send, final MemorySegment recv, final int[] recvCounts,
        final int[] displs, final Datatype type) {
        DataCollectives.allgatherv(usable("allgatherv"), send, recv, recvCounts, displs, type);
    }

    /**
     * MPI_ALLTOALL (section 5.8): block j of member i's {@code send} (size equal blocks) to block i of
     * member j's {@code recv}.
     */
    public void alltoall(final MemorySegment send, final MemorySegment recv) {
        DataCollectives.alltoall(usable("alltoall"), send, recv);
    }

    /**
     * MPI_ALLTOALLV (section 5.8): {@code sendCounts[j]} elements at {@code sendDispls[j]} of member i's
     * {@code send} to member j's {@code recv} at {@code recvDispls[i]}, where {@code recvCounts[i]} must
     * be the same number.
     */
    public void alltoallv(final MemorySegment send, final int[] sendCounts, final int[] sendDispls,
        final MemorySegment recv, final int[] recvCounts, final int[] recvDispls, final Datatype type) {
        DataCollectives.alltoallv(usable("alltoallv"), send, sendCounts, sendDispls, recv, recvCounts, recvDispls,
            type);
    }

    /**
     * MPI_REDUCE (section 5.9): {@code count} elements combined element-wise with {@code op} over the
     * members, in rank order, into the root's {@code recv} (which may be {@code send}).
     */
    public void reduce(final MemorySegment send, final MemorySegment recv, final long count, final Datatype type,
        final Op op, final int root) {
        ReduceCollectives.reduce(usable("reduce"), send, recv, count, type, op, root);
    }

    /** MPI_ALLREDUCE (section 5.9.6): {@link #reduce} to every member, with the same bits at each. */
    public void allreduce(final MemorySegment send, final MemorySegment recv, final long count, final Datatype type,
        final Op op) {
        ReduceCollectives.allreduce(usable("allreduce"), send, recv, count, type, op);
    }

    /**
     * MPI_REDUCE_SCATTER_BLOCK (section 5.10.1): the reduction of size * recvCount elements; member m
     * gets block m.
     */
    public void reduceScatterBlock(final MemorySegment send, final MemorySegment recv, final long recvCount,
        final Datatype type, final Op op) {
        ReduceCollectives.reduceScatterBlock(usable("reduceScatterBlock"), send, recv, recvCount, type, op);
    }

    /**
     * MPI_REDUCE_SCATTER (section 5.10.2): the reduction of sum(recvCounts) elements; member m gets the
     * recvCounts[m] elements after those of the members before it.
     */
    public void reduceScatter(final MemorySegment send, final MemorySegment recv, final int[] recvCounts,
        final Datatype type, final Op op) {
        ReduceCollectives.reduceScatter(usable("reduceScatter"), send, recv, recvCounts, type, op);
    }

    /** MPI_SCAN (section 5.11.1): member m gets the reduction over members 0..m. */
    public void scan(final MemorySegment send, final MemorySegment recv, final long count, final Datatype type,
        final Op op) {
        ReduceCollectives.scan(usable("scan"), send, recv, count, type, op);
    }

    /** MPI_EXSCAN (section 5.11.2): member m gets the reduction over members 0..m-1; rank 0's recv is untouched. */
    public void exscan(final MemorySegment send, final MemorySegment recv, final long count, final Datatype type,
        final Op op) {
        ReduceCollectives.exscan(usable("exscan"), send, recv, count, type, op);
    }

    // ---------------------------------------------------------------- Java array conveniences

    /** {@link #bcast(MemorySegment, int)} of an array. */
    public void bcast(final long[] data, final int root) {
        bcast(data == null ? null : MemorySegment.ofArray(data), root);
    }

    /** {@link #bcast(MemorySegment, int)} of an array. */
    public void bcast(final double[] data, final int root) {
        bcast(data == null ? null : MemorySegment.ofArray(data), root);
    }

    /** {@link #bcast(MemorySegment, int)} of an array. */
    public void bcast(final int[] data, final int root) {
        bcast(data == null ? null : MemorySegment.ofArray(data), root);
    }

    /** {@link #bcast(MemorySegment, int)} of an array. */
    public void bcast(final byte[] data, final int root) {
        bcast(data == null ? null : MemorySegment.ofArray(data), root);
    }

    /** @return the {@link #allreduce} of one value per member. */
    public long allreduce(final long value, final Op op) {
        return allreduce(new long[] {value}, op)[0];
    }

    /** @return the {@link #allreduce} of one value per member. */
    public double allreduce(final double value, final Op op) {
        return allreduce(new double[] {value}, op)[0];
    }

    /** @return the element-wise {@link #allreduce} of the members' arrays (of one length). */
    public long[] allreduce(final long[] values, final Op op) {
        final long[] result = new long[length(values)];
        allreduce(of(values), of(result), length(values), Datatype.LONG, op);
        return result;
    }

    /** @return the element-wise {@link #allreduce} of the members' arrays (of one length). */
    public double[] allreduce(final double[] values, final Op op) {
        final double[] result = new double[length(values)];
        allreduce(of(values), of(result), length(values), Datatype.DOUBLE, op);
        return result;
    }

    /** @return the element-wise {@link #allreduce} of the members' arrays (of one length). */
    public int[] allreduce(final int[] values, final Op op) {
        final int[] result = new int[length(values)];
        allreduce(of(values), of(result), length(values), Datatype.INT, op);
        return result;
    }

    /** @return at the root the element-wise {@link #reduce} of the members' arrays; null elsewhere. */
    public long[] reduce(final long[] values, final Op op, final int root) {
        final long[] result = rank() == root ? new long[length(values)] : null;
        reduce(of(values), of(result), length(values), Datatype.LONG, op, root);
        return result;
    }

    /** @return at the root the element-wise {@link #reduce} of the members' arrays; null elsewhere. */
    public double[] reduce(final double[] values, final Op op, final int root) {
        final double[] result = rank() == root ? new double[length(values)] : null;
        reduce(of(values), of(result), length(values), Datatype.DOUBLE, op, root);
        return result;
    }

    /** @return the members' arrays (of one length), concatenated in rank order ({@link #allgather}). */
    public long[] allgather(final long[] values) {
        final long[] result = new long[length(values) * size()];
        allgather(of(values), of(result));
        return result;
    }

    /** @return the members' arrays (of one length), concatenated in rank order ({@link #allgather}). */
    public int[] allgather(final int[] values) {
        final int[] result = new int[length(values) * size()];
        allgather(of(values), of(result));
        return result;
    }

    /** @return the members' arrays (of one length), concatenated in rank order ({@link #allgather}). */
    public double[] allgather(final double[] values) {
        final double[] result = new double[length(values) * size()];
        allgather(of(values), of(result));
        return result;
    }

    /** @return at the root the members' arrays concatenated in rank order ({@link #gather}); null elsewhere. */
    public long[] gather(final long[] values, final int root) {
        final long[] result = rank() == root ? new long[length(values) * size()] : null;
        gather(of(values), of(result), root);
        return result;
    }

    /** @return block m of every member's array (size equal blocks) at position m ({@link #alltoall}). */
    public long[] alltoall(final long[] values) {
        final long[] result = new long[length(values)];
        alltoall(of(values), of(result));
        return result;
    }

    /** @return the {@link #scan} of one value per member: the reduction over ranks 0..rank(). */
    public long scan(final long value, final Op op) {
        final long[] result = new long[1];
        scan(MemorySegment.ofArray(new long[] {value}), of(result), 1, Datatype.LONG, op);
        return result[0];
    }

    /** @return the {@link #exscan} of one value per member: over ranks 0..rank()-1, 0 at rank 0. */
    public long exscan(final long value, final Op op) {
        final long[] result = new long[1];
        exscan(MemorySegment.ofArray(new long[] {value}), of(result), 1, Datatype.LONG, op);
        return result[0];
    }

    // ---------------------------------------------------------------- internals

    /**
     * @return the communicator's collective machinery, after checking that it may be used.
     * @throws RmaException COMM on a freed communicator, OTHER on a closed job.
     */
    final CommContext usable(final String call) {
        context.job().checkOpen(call);
        if (freed) {
            throw new RmaException(ErrorClass.COMM, call + " on a freed " + this);
        }
        return context;
    }

    final CommContext context() {
        return context;
    }

    private static MemorySegment of(final long[] array) {
        return array == null ? null : MemorySegment.ofArray(array);
    }

    private static MemorySegment of(final double[] array) {
        return array == null ? null : MemorySegment.ofArray(array);
    }

    private static MemorySegment of(final int[] array) {
        return array == null ? null : MemorySegment.ofArray(array);
    }

    private static int length(final Object array) {
        return array == null ? 0 : java.lang.reflect.Array.getLength(array);
    }

    private static int indexOf(final int[] array, final int value) {
        for (int i = 0; i < array.length; i++) {
            if (array[i] == value) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return (context.isWorld() ? "world communicator" : "communicator " + context.id()) + " (rank " + rank() + " of "
            + size() + (freed ? ", freed" : "") + ")";
    }
}
