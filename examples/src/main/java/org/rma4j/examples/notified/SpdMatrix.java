package org.rma4j.examples.notified;

/**
 * The symmetric positive definite test matrix of {@link TileCholesky}: A = M M^T + N I for an N x N
 * matrix M whose entries are a fixed hash of their position, uniform in [-0.5, 0.5). Every rank
 * builds the same M, so each can generate its own tiles of A without communication. Immutable.
 */
final class SpdMatrix {
    private final int order;
    private final double[] m;

    /**
     * @param order N.
     */
    SpdMatrix(final int order) {
        this.order = order;
        this.m = new double[order * order];
        for (int r = 0; r < order; r++) {
            for (int c = 0; c < order; c++) {
                m[r * order + c] = entry(r, c);
            }
        }
    }

    /**
     * @return M(r, c): the top 53 bits of a SplitMix64 hash of the position, scaled to [-0.5, 0.5).
     */
    static double entry(final int r, final int c) {
        long z = ((long)r << 32 | c) + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53 - 0.5;
    }

    /**
     * @return N.
     */
    int order() {
        return order;
    }

    /**
     * @return A(r, c).
     */
    double element(final int r, final int c) {
        double sum = r == c ? order : 0;
        for (int k = 0; k < order; k++) {
            sum += m[r * order + k] * m[c * order + k];
        }
        return sum;
    }

    /**
     * @return tile (i, j) of A for tiles of b x b, row by row.
     */
    double[] tile(final int i, final int j, final int b) {
        final double[] tile = new double[b * b];
        for (int r = 0; r < b; r++) {
            for (int c = 0; c < b; c++) {
                tile[r * b + c] = element(i * b + r, j * b + c);
            }
        }
        return tile;
    }

    /**
     * @return ||L L^T - A||_F / ||A||_F for the lower triangular {@code l} (N x N, row by row).
     */
    double relativeResidual(final double[] l) {
        double residual = 0;
        double norm = 0;
        for (int r = 0; r < order; r++) {
            for (int c = 0; c <= r; c++) {
                double product = 0;
                for (int k = 0; k <= c; k++) {
                    product += l[r * order + k] * l[c * order + k];
                }
                final double a = element(r, c);
                final double weight = r == c ? 1 : 2;
                residual += weight * (product - a) * (product - a);
                norm += weight * a * a;
            }
        }
        return Math.sqrt(residual / norm);
    }
}
