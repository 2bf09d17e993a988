/*
 * The tile Cholesky factorization of the Notified Access paper (Belli and Hoefler, IPDPS 2015, section VI-C)
 * in C on MPI, the peer of org.rma4j.examples.notified.TileCholesky: A = L L^T for the SPD matrix
 * A = M M^T + N I (SpdMatrix: M(r, c) a SplitMix64 hash of the position) of SIZE x SIZE tiles of WORK x WORK
 * doubles, as the same data flow of POTRF, TRSM, SYRK and GEMM tile tasks (CholeskyEngine): tile column j
 * belongs to rank j mod P; panel tile L(i, k) goes to the owners of columns k + 1 .. i other than its
 * producer, named by the tag i T + k; a consumer does not know which tile comes next.
 *
 * Variants:
 *   sendrecv  MPI_Send of the tile with its tag to each consumer; the consumer MPI_Recvs from
 *             MPI_ANY_SOURCE with MPI_ANY_TAG into a staging tile and reads the tag from the status.
 *   putflush  in one lock_all epoch on an MPI_Win_allocate_shared window laid out as CholeskyLayout:
 *             MPI_Put of the tile into its slot at the consumer, MPI_Fetch_and_op(SUM 1) on the consumer's
 *             counter to claim a ring entry, MPI_Win_flush, MPI_Accumulate(MPI_REPLACE) of tag + 1 into the
 *             entry, MPI_Win_flush; the consumer polls its ring entries in order with
 *             MPI_Fetch_and_op(MPI_NO_OP) + MPI_Win_flush, then MPI_Win_sync before it loads the tile.
 *
 * Each rank first factorizes a 4 x 4-tile matrix alone twice (TileCholesky.warmUp); the factorization is
 * timed between two barriers at rank 0. Verification: the ranks send their tiles of L to rank 0, which checks
 * ||L L^T - A||_F / ||A||_F < 1e-10. Rate: GFLOP/s = N^3 / 3 / time, N = SIZE x WORK. Built with
 * -DRMA4J_WRONG_RESULT (only by the harness's tests) it factorizes a changed matrix on purpose.
 */
#include "mpi_apps.h"

#include <math.h>
#include <stdbool.h>

#define COUNTER_OFFSET 0
#define RING_OFFSET 256
#define TOLERANCE 1e-10

static const char *const VARIANTS[] = {"sendrecv", "putflush"};
enum { SEND_RECV, PUT_FLUSH };

static inline int tile_index(const int i, const int j) {
    return i * (i + 1) / 2 + j;
}

/* M(r, c) of SpdMatrix.entry: the top 53 bits of a SplitMix64 hash of the position, in [-0.5, 0.5). */
static double entry(const int r, const int c) {
    uint64_t z = ((uint64_t)(uint32_t)r << 32 | (uint32_t)c) + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53 - 0.5;
}

typedef struct {
    int order;
    double *m;
} spd_matrix;

static spd_matrix spd_new(const int order) {
    spd_matrix a = {order, app_alloc(sizeof(double) * order * order)};
    for (int r = 0; r < order; r++) {
        for (int c = 0; c < order; c++) {
            a.m[(long)r * order + c] = entry(r, c);
        }
    }
    return a;
}

static double spd_element(const spd_matrix *a, const int r, const int c) {
    double sum = r == c ? a->order : 0;
    const double *mr = a->m + (long)r * a->order;
    const double *mc = a->m + (long)c * a->order;
    for (int k = 0; k < a->order; k++) {
        sum += mr[k] * mc[k];
    }
    return sum;
}

static double *spd_tile(const spd_matrix *a, const int i, const int j, const int b) {
    double *tile = app_alloc(sizeof(double) * b * b);
    for (int r = 0; r < b; r++) {
        for (int c = 0; c < b; c++) {
            tile[r * b + c] = spd_element(a, i * b + r, j * b + c);
        }
    }
    return tile;
}

/* ||L L^T - A||_F / ||A||_F over the lower triangle, off-diagonal entries counted twice (SpdMatrix). */
static double spd_residual(const spd_matrix *a, const double *l) {
    const int n = a->order;
    double residual = 0;
    double norm = 0;
    for (int r = 0; r < n; r++) {
        for (int c = 0; c <= r; c++) {
            double product = 0;
            for (int k = 0; k <= c; k++) {
                product += l[(long)r * n + k] * l[(long)c * n + k];
            }
            const double value = spd_element(a, r, c);
            const double weight = r == c ? 1 : 2;
            residual += weight * (product - value) * (product - value);
            norm += weight * value * value;
        }
    }
    return sqrt(residual / norm);
}

/* TileKernels: DPOTRF, DTRSM (right, lower, transposed), DSYRK (lower), DGEMM (no transpose, transpose). */
static int potrf(double *a, const int b) {
    for (int j = 0; j < b; j++) {
        double diagonal = a[j * b + j];
        for (int k = 0; k < j; k++) {
            diagonal -= a[j * b + k] * a[j * b + k];
        }
        if (!(diagonal > 0)) {
            return 0;
        }
        const double pivot = sqrt(diagonal);
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
    return 1;
}

static void trsm(const double *l, double *x, const int b) {
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

static void syrk(const double *a, double *c, const int b) {
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

static void gemm(const double *a, const double *bt, double *c, const int b) {
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

/* CholeskyEngine: one rank's part of the task DAG, with its transport. */
typedef struct {
    int me;
    int procs;
    int tiles;
    int b;
    double **store;
    int *updates;
    bool *present;
    int next_owned_column;
    int positive_definite;
    /* transport */
    int variant;
    MPI_Win win;
    char *base;
    long tiles_offset;
    int next_entry;
    double *staging;
} engine;

static inline int owner(const int column, const int procs) {
    return column % procs;
}

static long tile_offset(const engine *e, const int i, const int j) {
    return e->tiles_offset + (long)tile_index(i, j) * e->b * e->b * 8;
}

static void engine_init(engine *e, const int me, const int procs, const int tiles, const int b,
    const spd_matrix *a) {
    const int count = tile_index(tiles, 0);
    memset(e, 0, sizeof *e);
    e->me = me;
    e->procs = procs;
    e->tiles = tiles;
    e->b = b;
    e->store = app_alloc(sizeof(double *) * count);
    e->updates = app_alloc(sizeof(int) * count);
    e->present = app_alloc(sizeof(bool) * count);
    for (int j = me; j < tiles; j += procs) {
        for (int i = j; i < tiles; i++) {
            e->store[tile_index(i, j)] = spd_tile(a, i, j, b);
        }
    }
#ifdef RMA4J_WRONG_RESULT
    /* The harness's test of the verification: the last rank factorizes a changed diagonal tile. */
    if (me == procs - 1) {
        e->store[tile_index(me, me)][0] += 1;
    }
#endif
    e->next_owned_column = me;
    e->positive_definite = 1;
    e->variant = -1;
}

static void engine_free(engine *e) {
    for (int x = 0; x < tile_index(e->tiles, 0); x++) {
        free(e->store[x]);
    }
    free(e->store);
    free(e->updates);
    free(e->present);
}

static void publish(engine *e, const int tag, const double *tile, const int consumer) {
    const int bytes = e->b * e->b * 8;
    if (e->variant == SEND_RECV) {
        MPI_Send(tile, e->b * e->b, MPI_DOUBLE, consumer, tag, MPI_COMM_WORLD);
        return;
    }
    const int64_t one = 1;
    int64_t claimed = 0;
    MPI_Put(tile, bytes, MPI_BYTE, consumer, tile_offset(e, tag / e->tiles, tag % e->tiles), bytes, MPI_BYTE,
        e->win);
    MPI_Fetch_and_op(&one, &claimed, MPI_INT64_T, consumer, COUNTER_OFFSET, MPI_SUM, e->win);
    /* The flush completes the tile at the consumer before its tag is written to the ring. */
    MPI_Win_flush(consumer, e->win);
    const int64_t entry_value = tag + 1L;
    MPI_Accumulate(&entry_value, 1, MPI_INT64_T, consumer, RING_OFFSET + 8 * claimed, 1, MPI_INT64_T, MPI_REPLACE,
        e->win);
    MPI_Win_flush(consumer, e->win);
}

/* Blocks until a tile addressed to this rank has arrived; returns its tag and points *data at it. */
static int receive(engine *e, const double **data) {
    if (e->variant == SEND_RECV) {
        MPI_Status status;
        MPI_Recv(e->staging, e->b * e->b, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
        *data = e->staging;
        return status.MPI_TAG;
    }
    const long offset = RING_OFFSET + 8L * e->next_entry;
    int64_t value = 0;
    int spins = 0;
    for (;;) {
        MPI_Fetch_and_op(NULL, &value, MPI_INT64_T, e->me, offset, MPI_NO_OP, e->win);
        MPI_Win_flush(e->me, e->win);
        if (value != 0) {
            break;
        }
        app_idle(&spins);
    }
    e->next_entry++;
    /* The tile is read by local loads: order them after the ring read (MPI-3.1 Example 11.7). */
    MPI_Win_sync(e->win);
    const int tag = (int)(value - 1);
    *data = (const double *)(e->base + tile_offset(e, tag / e->tiles, tag % e->tiles));
    return tag;
}

static void engine_gemm(engine *e, const int i, const int j, const int k) {
    const int target = tile_index(i, j);
    gemm(e->store[tile_index(i, k)], e->store[tile_index(j, k)], e->store[target], e->b);
    e->updates[target]++;
}

/* Panel tile L(i, k) is here: runs every update of an owned tile that it completes. */
static void arrived(engine *e, const int i, const int k) {
    e->present[tile_index(i, k)] = true;
    if (owner(i, e->procs) == e->me) {
        const int diagonal = tile_index(i, i);
        syrk(e->store[tile_index(i, k)], e->store[diagonal], e->b);
        e->updates[diagonal]++;
        for (int i2 = i + 1; i2 < e->tiles; i2++) {
            if (e->present[tile_index(i2, k)]) {
                engine_gemm(e, i2, i, k);
            }
        }
    }
    for (int j = k + 1; j < i; j++) {
        if (owner(j, e->procs) == e->me && e->present[tile_index(j, k)]) {
            engine_gemm(e, i, j, k);
        }
    }
}

static int column_ready(const engine *e, const int j) {
    for (int i = j; i < e->tiles; i++) {
        if (e->updates[tile_index(i, j)] < j) {
            return 0;
        }
    }
    return 1;
}

static void factor_column(engine *e, const int j) {
    double *diagonal = e->store[tile_index(j, j)];
    e->positive_definite &= potrf(diagonal, e->b);
    for (int i = j + 1; i < e->tiles; i++) {
        trsm(diagonal, e->store[tile_index(i, j)], e->b);
    }
    bool *consumer = app_alloc(sizeof(bool) * e->procs);
    for (int i = j + 1; i < e->tiles; i++) {
        /* The consumers of L(i, j): the owners of columns j + 1 .. i other than this rank, ascending. */
        memset(consumer, 0, sizeof(bool) * e->procs);
        for (int c = j + 1; c <= i; c++) {
            consumer[owner(c, e->procs)] = true;
        }
        for (int r = 0; r < e->procs; r++) {
            if (consumer[r] && r != e->me) {
                publish(e, i * e->tiles + j, e->store[tile_index(i, j)], r);
            }
        }
    }
    free(consumer);
    for (int i = j + 1; i < e->tiles; i++) {
        arrived(e, i, j);
    }
}

static void factorize(engine *e) {
    while (e->next_owned_column < e->tiles) {
        if (column_ready(e, e->next_owned_column)) {
            factor_column(e, e->next_owned_column);
            e->next_owned_column += e->procs;
        } else {
            const double *data;
            const int tag = receive(e, &data);
            const int i = tag / e->tiles;
            const int k = tag % e->tiles;
            double *tile = app_alloc(sizeof(double) * e->b * e->b);
            memcpy(tile, data, sizeof(double) * e->b * e->b);
            e->store[tile_index(i, k)] = tile;
            arrived(e, i, k);
        }
    }
}

/* TileCholesky.warmUp: two factorizations of a 4 x 4-tile matrix alone, no communication. */
static void warm_up(const int b) {
    for (int repeat = 0; repeat < 2; repeat++) {
        spd_matrix a = spd_new(4 * b);
        engine e;
        engine_init(&e, 0, 1, 4, b, &a);
        factorize(&e);
        engine_free(&e);
        free(a.m);
    }
}

/* Every rank sends its tiles of L to rank 0, which assembles L (N x N, row by row); NULL elsewhere. */
static double *gather(const engine *e) {
    const int b = e->b;
    const int n = e->tiles * b;
    double *factor = rank == 0 ? app_alloc(sizeof(double) * n * n) : NULL;
    double *tile = app_alloc(sizeof(double) * b * b);
    for (int j = 0; j < e->tiles; j++) {
        for (int i = j; i < e->tiles; i++) {
            const int from = owner(j, e->procs);
            if (rank == 0 && from == 0) {
                memcpy(tile, e->store[tile_index(i, j)], sizeof(double) * b * b);
            } else if (rank == 0) {
                MPI_Recv(tile, b * b, MPI_DOUBLE, from, tile_index(i, j), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == from) {
                MPI_Send(e->store[tile_index(i, j)], b * b, MPI_DOUBLE, 0, tile_index(i, j), MPI_COMM_WORLD);
            }
            if (rank == 0) {
                for (int r = 0; r < b; r++) {
                    memcpy(factor + (long)(i * b + r) * n + j * b, tile + r * b, sizeof(double) * b);
                }
            }
        }
    }
    free(tile);
    return factor;
}

static app_sample run(const int variant, const int tiles, const int b) {
    const int n = tiles * b;
    spd_matrix a = spd_new(n);
    engine e;
    engine_init(&e, rank, ranks, tiles, b, &a);
    e.variant = variant;
    e.staging = app_alloc(sizeof(double) * b * b);
    const long ring_end = RING_OFFSET + 8L * (tiles * (tiles - 1) / 2);
    e.tiles_offset = (ring_end + 127) / 128 * 128;
    const long window_bytes = e.tiles_offset + (long)tile_index(tiles, 0) * b * b * 8;
    if (variant == PUT_FLUSH) {
        MPI_Win_allocate_shared(window_bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &e.base, &e.win);
        memset(e.base, 0, window_bytes);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock_all(0, e.win);
    }
    warm_up(b);
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = app_now_ns();
    factorize(&e);
    MPI_Barrier(MPI_COMM_WORLD);
    const double elapsed = app_now_ns() - start;
    if (variant == PUT_FLUSH) {
        MPI_Win_unlock_all(e.win);
        MPI_Win_free(&e.win);
    }
    int positive_definite = e.positive_definite;
    MPI_Allreduce(MPI_IN_PLACE, &positive_definite, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    double *factor = gather(&e);
    app_sample sample = {0, 0, 1};
    if (rank == 0) {
        const double residual = spd_residual(&a, factor);
        sample.time_ns = (long long)elapsed;
        sample.throughput = (double)n * n * n / 3 / (elapsed > 1 ? elapsed : 1);
        sample.verified = positive_definite && residual < TOLERANCE;
        free(factor);
    }
    free(e.staging);
    engine_free(&e);
    free(a.m);
    return sample;
}

static const char *check(const int size, const int work, const int job_ranks) {
    (void)job_ranks;
    if (size < 1 || work < 1) {
        return "SIZE (tiles per side) and WORK (tile side) must be >= 1";
    }
    return (long)size * work > 4096 ? "N = SIZE x WORK must not exceed 4096" : NULL;
}

int main(int argc, char **argv) {
    return app_main(argc, argv, "mpi_cholesky", VARIANTS, 2, check, run);
}
