package org.rma4j.examples.notified;

/**
 * The four tile tasks of the tile Cholesky factorization (Kurzak, Ltaief, Dongarra and Badia,
 * "Scheduling dense linear algebra operations on multicore processors", 2010; the BLAS / LAPACK
 * routines of the same names) on b x b tiles of doubles stored row by row. Only lower triangles of
 * diagonal tiles are read; {@link #potrf} zeroes the strict upper triangle of its result.
 */
final class TileKernels {
    private TileKernels() {
    }

    /**
     * DPOTRF: overwrites the lower triangle of the symmetric positive definite tile {@code a} with its
     * Cholesky factor L (a = L L^T) and zeroes the upper triangle.
     *
     * @throws ArithmeticException if the tile is not positive definite.
     */
    static void potrf(final double[] a, final int b) {
        for (int j = 0; j < b; j++) {
            double diagonal = a[j * b + j];
            for (int k = 0; k < j; k++) {
                diagonal -= a[j * b + k] * a[j * b + k];
            }
            if (!(diagonal > 0)) {
                throw new ArithmeticException("tile is not positive definite: pivot " + j + " is " + diagonal);
            }
            final double pivot = Math.sqrt(diagonal);
            a[j * b + j] = pivot;
            for (int i = j + 1; i < b; i++) {
                double value = a[i * b + j];
                for (int k = 0; k < j; k++) {
                    value -= a[i * b + k] * a[j * b + k];
                }
                a[i * b + j] = value / pivot;
                a[j * b + i] = 0;
            }
        }
    }

    /**
     * DTRSM (right side, lower, transposed): overwrites {@code x} with x L^{-T}, where {@code l} is a
     * factored diagonal tile: the tile of L below it.
     */
    static void trsm(final double[] l, final double[] x, final int b) {
        for (int r = 0; r < b; r++) {
            for (int c = 0; c < b; c++) {
                double value = x[r * b + c];
                for (int k = 0; k < c; k++) {
                    value -= x[r * b + k] * l[c * b + k];
                }
                x[r * b + c] = value / l[c * b + c];
            }
        }
    }

    /**
     * DSYRK (lower, no transpose): c -= a a^T on the lower triangle of the diagonal tile {@code c}.
     */
    static void syrk(final double[] a, final double[] c, final int b) {
        for (int r = 0; r < b; r++) {
            for (int col = 0; col <= r; col++) {
                double sum = 0;
                for (int k = 0; k < b; k++) {
                    sum += a[r * b + k] * a[col * b + k];
                }
                c[r * b + col] -= sum;
            }
        }
    }

    /**
     * DGEMM (no transpose, transpose): c -= a bt^T.
     */
    static void gemm(final double[] a, final double[] bt, final double[] c, final int b) {
        for (int r = 0; r < b; r++) {
            for (int col = 0; col < b; col++) {
                double sum = 0;
                for (int k = 0; k < b; k++) {
                    sum += a[r * b + k] * bt[col * b + k];
                }
                c[r * b + col] -= sum;
            }
        }
    }
}
