package org.rma4j;

import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.Set;

import org.rma4j.shm.ControlLayout;

/**
 * An ordered set of job ranks (MPI_Group, MPI-3.1 chapter 6), as passed to the general active
 * target synchronization calls {@link Window#post}, {@link Window#start} and to
 * {@link Communicator#create(Group)}. A member's position is its rank in the group; the member itself is a
 * rank of the job, which names the process whatever communicator it is seen through: the group of a
 * communicator's first two ranks is {@code comm.group().incl(0, 1)}. Immutable and thread-safe.
 *
 * <p>Members are ranks a job can have, 0..{@link #MAX_RANK}, so a group never holds more than
 * {@code MAX_RANK + 1} members; a larger group is refused with {@link ErrorClass#RANK} before anything
 * is allocated.
 */
public final class Group {
    /** MPI_GROUP_EMPTY. */
    public static final Group EMPTY = new Group(new int[0]);
    /** MPI_UNDEFINED, returned by {@link #translateRanks} for a rank not in the other group. */
    public static final int UNDEFINED = -32766;

    /** The highest rank of any job ({@link ControlLayout#MAX_RANKS} - 1). */
    public static final int MAX_RANK = ControlLayout.MAX_RANKS - 1;

    private final int[] members;

    private Group(final int[] members) {
        this.members = members;
    }

    /**
     * A group of the given job ranks, in the given order.
     *
     * @throws RmaException RANK for a negative rank, GROUP for a repeated rank.
     */
    public static Group of(final int... ranks) {
        final BitSet seen = new BitSet(Math.min(ranks.length, MAX_RANK + 1));
        for (final int rank : ranks) {
            if (rank < 0) {
                throw new RmaException(ErrorClass.RANK, "group member " + rank + " is negative");
            }
            if (rank > MAX_RANK) {
                throw new RmaException(ErrorClass.RANK,
                    "group member " + rank + " is outside 0.." + MAX_RANK + ", the ranks a job can have");
            }
            if (seen.get(rank)) {
                throw new RmaException(ErrorClass.GROUP, "group member " + rank + " appears twice in "
                    + (ranks.length <= 16 ? Arrays.toString(ranks) : "a group of " + ranks.length + " members"));
            }
            seen.set(rank);
        }
        return new Group(ranks.clone());
    }

    /**
     * @return the group of ranks 0..size-1 (the group of a job or window).
     */
    public static Group range(final int size) {
        if (size < 0) {
            throw new RmaException(ErrorClass.ARG, "group range size=" + size + " is negative");
        }
        if (size > MAX_RANK + 1) {
            throw new RmaException(ErrorClass.RANK,
                "group range size=" + size + " exceeds the " + (MAX_RANK + 1) + " ranks a job can have");
        }
        final int[] ranks = new int[size];
        for (int i = 0; i < size; i++) {
            ranks[i] = i;
        }
        return new Group(ranks);
    }

    /**
     * @return MPI_GROUP_SIZE.
     */
    public int size() {
        return members.length;
    }

    /**
     * @return the job rank of the member at position {@code index}.
     */
    public int member(final int index) {
        if (index < 0 || index >= members.length) {
            throw new RmaException(ErrorClass.RANK, "group rank " + index + " is outside 0.." + (members.length - 1));
        }
        return members[index];
    }

    /**
     * @return the job ranks of the members, in order.
     */
    public int[] members() {
        return members.clone();
    }

    /** @return the members without a copy, for the runtime's own loops (which never write it). */
    int[] membersView() {
        return members;
    }

    /**
     * @return whether {@code jobRank} is a member.
     */
    public boolean contains(final int jobRank) {
        return indexOf(jobRank) >= 0;
    }

    /**
     * @return the position of {@code jobRank} in the group, or {@link #UNDEFINED}.
     */
    public int indexOf(final int jobRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == jobRank) {
                return i;
            }
        }
        return UNDEFINED;
    }

    /**
     * MPI_GROUP_INCL: the members at the given positions, in that order.
     */
    public Group incl(final int... positions) {
        final int[] selected = new int[positions.length];
        for (int i = 0; i < positions.length; i++) {
            selected[i] = member(positions[i]);
        }
        return of(selected);
    }

    /**
     * MPI_GROUP_EXCL: the members not at the given positions, in group order.
     */
    public Group excl(final int... positions) {
        final boolean[] drop = new boolean[members.length];
        for (final int position : positions) {
            member(position);
            drop[position] = true;
        }
        return new Group(filter(i -> !drop[i]));
    }

    /**
     * MPI_GROUP_UNION: this group's members, then the other's members not in this one.
     */
    public Group union(final Group other) {
        final Set<Integer> all = new LinkedHashSet<>();
        Arrays.stream(members).forEach(all::add);
        Arrays.stream(other.members).forEach(all::add);
        return new Group(all.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * MPI_GROUP_INTERSECTION: this group's members that are in the other, in this group's order.
     */
    public Group intersection(final Group other) {
        return new Group(filter(i -> other.contains(members[i])));
    }

    /**
     * MPI_GROUP_DIFFERENCE: this group's members that are not in the other.
     */
    public Group difference(final Group other) {
        return new Group(filter(i -> !other.contains(members[i])));
    }

    /**
     * MPI_GROUP_TRANSLATE_RANKS: the positions in {@code other} of the members of this group at the
     * given positions ({@link #UNDEFINED} where absent).
     */
    public int[] translateRanks(final int[] positions, final Group other) {
        final int[] translated = new int[positions.length];
        for (int i = 0; i < positions.length; i++) {
            translated[i] = other.indexOf(member(positions[i]));
        }
        return translated;
    }

    /**
     * MPI_GROUP_COMPARE (MPI-3.1 section 6.3.1).
     *
     * @return {@link Comparison#IDENT} for the same members in the same order, {@link Comparison#SIMILAR}
     *         for the same members in another order, else {@link Comparison#UNEQUAL}.
     * @throws RmaException GROUP for a null group.
     */
    public Comparison compare(final Group other) {
        if (other == null) {
            throw new RmaException(ErrorClass.GROUP, "compare with a null group (use Group.EMPTY)");
        }
        return Comparison.ofMembers(members, other.members);
    }

    private int[] filter(final java.util.function.IntPredicate keep) {
        return java.util.stream.IntStream.range(0, members.length).filter(keep).map(i -> members[i]).toArray();
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof Group group && Arrays.equals(members, group.members);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(members);
    }

    @Override
    public String toString() {
        return "Group" + Arrays.toString(members);
    }
}
