package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The group operations of MPI-3.1 chapter 6 (MPI_GROUP_UNION, _INTERSECTION, _DIFFERENCE,
 * _TRANSLATE_RANKS, _INCL, _EXCL), with the orders the standard prescribes.
 */
class GroupTest {
    private static final Group A = Group.of(5, 1, 3, 7);
    private static final Group B = Group.of(3, 8, 5, 2);

    @Test
    void shouldUniteInThisOrderThenTheOthersNewMembers() {
        assertArrayEquals(new int[] {5, 1, 3, 7, 8, 2}, A.union(B).members());
        assertArrayEquals(new int[] {3, 8, 5, 2, 1, 7}, B.union(A).members());
        assertEquals(A, A.union(Group.EMPTY));
        assertEquals(A, Group.EMPTY.union(A));
        assertEquals(A, A.union(A));
    }

    @Test
    void shouldIntersectInThisGroupsOrder() {
        assertArrayEquals(new int[] {5, 3}, A.intersection(B).members());
        assertArrayEquals(new int[] {3, 5}, B.intersection(A).members());
        assertEquals(Group.EMPTY, A.intersection(Group.EMPTY));
        assertEquals(Group.EMPTY, A.intersection(Group.of(0, 2)));
        assertEquals(A, A.intersection(A));
    }

    @Test
    void shouldSubtractKeepingThisGroupsOrder() {
        assertArrayEquals(new int[] {1, 7}, A.difference(B).members());
        assertArrayEquals(new int[] {8, 2}, B.difference(A).members());
        assertEquals(A, A.difference(Group.EMPTY));
        assertEquals(Group.EMPTY, A.difference(A));
    }

    @Test
    void shouldTranslatePositionsToTheOtherGroupOrUndefined() {
        // A = {5, 1, 3, 7}; B = {3, 8, 5, 2}: 5 is at 2 in B, 1 is absent, 3 is at 0, 7 absent.
        assertArrayEquals(new int[] {2, Group.UNDEFINED, 0, Group.UNDEFINED},
            A.translateRanks(new int[] {0, 1, 2, 3}, B));
        assertArrayEquals(new int[] {0, 2}, A.translateRanks(new int[] {2, 0}, Group.of(3, 9, 5)));
        assertArrayEquals(new int[0], A.translateRanks(new int[0], B));
        assertArrayEquals(new int[] {3, 1}, A.translateRanks(new int[] {3, 1}, A));
    }

    @Test
    void shouldRejectTranslatingAPositionOutsideTheGroup() {
        final RmaException e = assertThrows(RmaException.class, () -> A.translateRanks(new int[] {4}, B));
        assertEquals(ErrorClass.RANK, e.errorClass());
        assertThrows(RmaException.class, () -> A.translateRanks(new int[] {-1}, B));
    }

    @Test
    void shouldSelectWithInclInTheGivenOrderAndDropWithExcl() {
        assertArrayEquals(new int[] {7, 5}, A.incl(3, 0).members());
        assertArrayEquals(new int[] {1, 3}, A.excl(3, 0).members());
        assertEquals(Group.EMPTY, A.incl());
        assertEquals(A, A.excl());
        assertEquals(ErrorClass.RANK, assertThrows(RmaException.class, () -> A.incl(4)).errorClass());
        assertEquals(ErrorClass.GROUP, assertThrows(RmaException.class, () -> A.incl(1, 1)).errorClass());
        assertEquals(ErrorClass.RANK, assertThrows(RmaException.class, () -> A.excl(-1)).errorClass());
    }

    @Test
    void shouldReportSizeMembersPositionsAndMembership() {
        assertEquals(4, A.size());
        assertEquals(3, A.member(2));
        assertEquals(2, A.indexOf(3));
        assertEquals(Group.UNDEFINED, A.indexOf(2));
        assertTrue(A.contains(7));
        assertFalse(A.contains(0));
        assertArrayEquals(new int[] {0, 1, 2}, Group.range(3).members());
        assertEquals(0, Group.range(0).size());
        assertEquals(ErrorClass.ARG, assertThrows(RmaException.class, () -> Group.range(-1)).errorClass());
    }

    @Test
    void shouldRejectNegativeAndRepeatedMembers() {
        assertEquals(ErrorClass.RANK, assertThrows(RmaException.class, () -> Group.of(0, -2)).errorClass());
        assertEquals(ErrorClass.GROUP, assertThrows(RmaException.class, () -> Group.of(1, 2, 1)).errorClass());
    }

    @Test
    void shouldCompareByMembersInOrderAndStayImmutable() {
        assertEquals(Group.of(5, 1, 3, 7), A);
        assertEquals(Group.of(5, 1, 3, 7).hashCode(), A.hashCode());
        assertNotEquals(Group.of(1, 5, 3, 7), A, "order matters (MPI_UNEQUAL vs MPI_SIMILAR)");
        final int[] members = A.members();
        members[0] = 99;
        assertEquals(5, A.member(0));
        final int[] source = {4, 6};
        final Group group = Group.of(source);
        source[0] = 99;
        assertEquals(4, group.member(0));
        assertEquals("Group[5, 1, 3, 7]", A.toString());
    }

    @Test
    void shouldCompareIdentSimilarOrUnequalAsMpiGroupCompare() {
        assertEquals(Comparison.IDENT, A.compare(Group.of(5, 1, 3, 7)));
        assertEquals(Comparison.SIMILAR, A.compare(Group.of(1, 3, 5, 7)));
        assertEquals(Comparison.UNEQUAL, A.compare(Group.of(5, 1, 3)));
        assertEquals(Comparison.UNEQUAL, A.compare(Group.of(5, 1, 3, 8)));
        assertEquals(Comparison.IDENT, Group.EMPTY.compare(Group.of()));
        assertEquals(ErrorClass.GROUP, assertThrows(RmaException.class, () -> A.compare(null)).errorClass());
        assertEquals("MPI_SIMILAR", Comparison.SIMILAR.mpiName());
    }
}
