package org.rma4j.litmus.gen;

import java.util.ArrayList;
import java.util.List;

/**
 * Permutations of process indices, identity first.
 */
final class Permutations {
    private Permutations() {
    }

    /** @return every permutation of 0..n-1, the identity first. */
    static int[][] of(final int n) {
        final List<int[]> out = new ArrayList<>();
        permute(new int[n], new boolean[n], 0, out);
        return out.toArray(new int[0][]);
    }

    private static void permute(final int[] current, final boolean[] used, final int depth, final List<int[]> out) {
        if (depth == current.length) {
            out.add(current.clone());
            return;
        }
        for (int i = 0; i < current.length; i++) {
            if (!used[i]) {
                used[i] = true;
                current[depth] = i;
                permute(current, used, depth + 1, out);
                used[i] = false;
            }
        }
    }

    /** @return the processes reordered: result[perm[p]] = program[p]. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static <T> List<T>[] apply(final List<List<T>> program, final int[] perm) {
        final List<T>[] out = new List[program.size()];
        for (int p = 0; p < program.size(); p++) {
            out[perm[p]] = program.get(p);
        }
        return out;
    }
}
