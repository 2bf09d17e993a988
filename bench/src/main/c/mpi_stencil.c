/*
 * The pipelined stencil of the Notified Access paper (Belli and Hoefler, IPDPS 2015, section VI-A) in C on
 * MPI, the peer of org.rma4j.examples.notified.PipelinedStencil: the Sync_p2p kernel of the Parallel Research
 * Kernels (github.com/ParRes/Kernels, MPI1/Synch_p2p) on an m x m grid, SIZE = m, WORK = timed passes.
 *
 * The m columns are split over the ranks as in StencilBlock (computed columns 1 .. m-1 evenly, column 0 at
 * rank 0); the rows are pipelined: rank r waits for A(lo-1, j) from rank r - 1, computes its part of row j
 * and sends its last value to rank r + 1. After each pass the last rank sends -A(m-1, m-1) to rank 0, which
 * makes it A(0, 0). WORK + 1 passes; rank 0 times the last WORK from a barrier after the first.
 *
 * Variants:
 *   sendrecv  MPI_Recv of row j's value from the left neighbour with tag j, MPI_Send to the right one (PRK's
 *             MPI1 code); the corner with tag 0.
 *   putflush  in one lock_all epoch on an MPI_Win_allocate_shared window laid out as StencilLayout: MPI_Put
 *             of the value into slot j, MPI_Win_flush, MPI_Accumulate(MPI_REPLACE) of the sequence number
 *             pass * n + j into the receiver's flag, MPI_Win_flush; the receiver polls its flag with
 *             MPI_Fetch_and_op(MPI_NO_OP) + MPI_Win_flush, then MPI_Win_sync before it loads the slot.
 *   pscw      PipelineChannels.Pscw: rank r > 0 exposes its window to r - 1 for one row at a time (MPI_Win_post
 *             at the start of a pass and after each row's MPI_Win_wait), rank 0 to the last rank for the pass's
 *             corner; the sender puts each row's value into slot j in an access epoch of its own
 *             (MPI_Win_start, MPI_Put, MPI_Win_complete), the corner into slot 0.
 *   fence     PipelineChannels.Fence: every rank calls MPI_Win_fence at each of the pass's (m - 1) + (P - 1)
 *             steps; rank r puts row j's value after fence j + r - 1 and its right neighbour reads it after
 *             fence j + r; the corner goes to rank 0 after fence (m - 1) + (P - 1) - 1.
 *
 * Verification (PRK): the final corner, which rank 0 holds negated in A(0, 0), must be
 * (WORK + 1) (2 m - 2) within a relative 1e-8. Rate: GMOPS = 2 (m - 1)^2 WORK / time, in billions per second.
 * Built with -DRMA4J_WRONG_RESULT (only by the harness's tests) it computes a wrong grid on purpose.
 */
#include "mpi_apps.h"

#include <math.h>

#define ROW_FLAG_OFFSET 0
#define CORNER_FLAG_OFFSET 128
#define SLOTS_OFFSET 256
#define CORNER_TAG 0

static const char *const VARIANTS[] = {"sendrecv", "putflush", "pscw", "fence"};
enum { SEND_RECV, PUT_FLUSH, PSCW, FENCE };

/* StencilBlock: columns lo-1 .. hi-1 of the grid, row by row, local column 0 holding A(lo-1, j). */
typedef struct {
    int rows;
    int lo;
    int width;
    int first_computed;
    double *values;
} block;

static void block_init(block *b, const int columns, const int rows) {
    b->rows = rows;
    b->lo = rank == 0 ? 0 : 1 + (int)((long)rank * (columns - 1) / ranks);
    const int hi = 1 + (int)((long)(rank + 1) * (columns - 1) / ranks);
    b->width = hi - b->lo + 1;
    b->first_computed = b->lo == 0 ? 2 : 1;
    b->values = app_alloc(sizeof(double) * (size_t)b->width * (size_t)rows);
    for (int c = 0; c < b->width; c++) {
        b->values[c] = b->lo - 1 + c;
    }
    if (b->lo == 0) {
        for (int j = 0; j < rows; j++) {
            b->values[(size_t)j * b->width + 1] = j;
        }
    }
#ifdef RMA4J_WRONG_RESULT
    /* The harness's test of the verification: a wrong boundary value at the last rank shifts the corner. */
    if (rank == ranks - 1) {
        b->values[b->width - 1] += 1;
    }
#endif
}

static double block_compute_row(const block *b, const int row) {
    double *at = b->values + (size_t)row * b->width;
    const double *above = at - b->width;
    for (int c = b->first_computed; c < b->width; c++) {
        at[c] = at[c - 1] + above[c] - above[c - 1];
    }
    return at[b->width - 1];
}

/* The one-sided channel: the window and this rank's part of it. */
static MPI_Win win;
static char *base;
static long pass_number;
/* PSCW: the groups of the left and right neighbours, the last rank and rank 0. */
static MPI_Group left_group;
static MPI_Group right_group;
static MPI_Group last_group;
static MPI_Group root_group;
/* Fence: the fences of the current pass so far, and the pass's steps. */
static int fences;
static int fence_steps;

static double slot_value(const int slot) {
    double value;
    memcpy(&value, base + SLOTS_OFFSET + 8L * slot, sizeof value);
    return value;
}

static void fence_until(const int count) {
    while (fences < count) {
        MPI_Win_fence(0, win);
        fences++;
    }
}

static void pscw_put(const MPI_Group group, const int target, const int slot, const double value) {
    MPI_Win_start(group, 0, win);
    MPI_Put(&value, 1, MPI_DOUBLE, target, SLOTS_OFFSET + 8L * slot, 1, MPI_DOUBLE, win);
    MPI_Win_complete(win);
}

static void deliver(const int target, const int slot, const double value, const int flag_offset,
    const int64_t sequence) {
    MPI_Put(&value, 1, MPI_DOUBLE, target, SLOTS_OFFSET + 8L * slot, 1, MPI_DOUBLE, win);
    /* The flush completes the value at the target before the flag announces it. */
    MPI_Win_flush(target, win);
    MPI_Accumulate(&sequence, 1, MPI_INT64_T, target, flag_offset, 1, MPI_INT64_T, MPI_REPLACE, win);
    MPI_Win_flush(target, win);
}

static double await_slot(const int flag_offset, const int64_t sequence, const int slot) {
    int spins = 0;
    for (;;) {
        int64_t seen = 0;
        MPI_Fetch_and_op(NULL, &seen, MPI_INT64_T, rank, flag_offset, MPI_NO_OP, win);
        MPI_Win_flush(rank, win);
        if (seen >= sequence) {
            break;
        }
        app_idle(&spins);
    }
    /* The slot is read by a local load: order it after the flag read (MPI-3.1 Example 11.7). */
    MPI_Win_sync(win);
    return slot_value(slot);
}

static double receive_left(const int variant, const int row, const int rows) {
    double value = 0;
    if (variant == SEND_RECV) {
        MPI_Recv(&value, 1, MPI_DOUBLE, rank - 1, row, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return value;
    }
    if (variant == PSCW) {
        MPI_Win_wait(win);
        value = slot_value(row);
        if (row + 1 < rows) {
            MPI_Win_post(left_group, 0, win);
        }
        return value;
    }
    if (variant == FENCE) {
        fence_until(row + rank - 1);
        return slot_value(row);
    }
    return await_slot(ROW_FLAG_OFFSET, pass_number * rows + row, row);
}

static void send_right(const int variant, const int row, const int rows, double value) {
    if (variant == SEND_RECV) {
        MPI_Send(&value, 1, MPI_DOUBLE, rank + 1, row, MPI_COMM_WORLD);
    } else if (variant == PSCW) {
        pscw_put(right_group, rank + 1, row, value);
    } else if (variant == FENCE) {
        fence_until(row + rank - 1);
        MPI_Put(&value, 1, MPI_DOUBLE, rank + 1, SLOTS_OFFSET + 8L * row, 1, MPI_DOUBLE, win);
    } else {
        deliver(rank + 1, row, value, ROW_FLAG_OFFSET, pass_number * rows + row);
    }
}

static void send_corner(const int variant, double value) {
    if (variant == SEND_RECV) {
        MPI_Send(&value, 1, MPI_DOUBLE, 0, CORNER_TAG, MPI_COMM_WORLD);
    } else if (variant == PSCW) {
        pscw_put(root_group, 0, 0, value);
    } else if (variant == FENCE) {
        fence_until(fence_steps - 1);
        MPI_Put(&value, 1, MPI_DOUBLE, 0, SLOTS_OFFSET, 1, MPI_DOUBLE, win);
    } else {
        deliver(0, 0, value, CORNER_FLAG_OFFSET, pass_number + 1);
    }
}

static double receive_corner(const int variant) {
    double value = 0;
    if (variant == SEND_RECV) {
        MPI_Recv(&value, 1, MPI_DOUBLE, ranks - 1, CORNER_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return value;
    }
    if (variant == PSCW) {
        MPI_Win_wait(win);
        return slot_value(0);
    }
    if (variant == FENCE) {
        fence_until(fence_steps);
        return slot_value(0);
    }
    return await_slot(CORNER_FLAG_OFFSET, pass_number + 1, 0);
}

/* The start of a pass: PSCW exposes the window for the pass's first row (rank 0: for the corner). */
static void begin_pass(const int variant) {
    fences = 0;
    if (variant == PSCW) {
        if (rank > 0) {
            MPI_Win_post(left_group, 0, win);
        } else if (ranks > 1) {
            MPI_Win_post(last_group, 0, win);
        }
    }
}

static void open_channel(const int variant, const int rows) {
    if (variant == SEND_RECV) {
        return;
    }
    MPI_Win_allocate_shared(SLOTS_OFFSET + 8L * rows, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    memset(base, 0, SLOTS_OFFSET + 8L * rows);
    MPI_Barrier(MPI_COMM_WORLD);
    if (variant == PUT_FLUSH) {
        MPI_Win_lock_all(0, win);
    } else if (variant == PSCW) {
        MPI_Group world;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        const int left = rank - 1;
        const int right = rank + 1;
        const int last = ranks - 1;
        const int root = 0;
        MPI_Group_incl(world, rank > 0 ? 1 : 0, &left, &left_group);
        MPI_Group_incl(world, rank < ranks - 1 ? 1 : 0, &right, &right_group);
        MPI_Group_incl(world, 1, &last, &last_group);
        MPI_Group_incl(world, 1, &root, &root_group);
        MPI_Group_free(&world);
    } else {
        fence_steps = ranks == 1 ? 0 : (rows - 1) + (ranks - 1);
        MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    }
}

static void close_channel(const int variant) {
    if (variant == SEND_RECV) {
        return;
    }
    if (variant == PUT_FLUSH) {
        MPI_Win_unlock_all(win);
    } else if (variant == PSCW) {
        MPI_Group_free(&left_group);
        MPI_Group_free(&right_group);
        MPI_Group_free(&last_group);
        MPI_Group_free(&root_group);
    } else {
        MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    }
    MPI_Win_free(&win);
}

static app_sample run(const int variant, const int m, const int iterations) {
    const int rows = m;
    block b;
    block_init(&b, m, rows);
    open_channel(variant, rows);
    double start = 0;
    for (int pass = 0; pass <= iterations; pass++) {
        if (pass == 1) {
            MPI_Barrier(MPI_COMM_WORLD);
            start = app_now_ns();
        }
        pass_number = pass;
        begin_pass(variant);
        for (int row = 1; row < rows; row++) {
            if (rank > 0) {
                b.values[(size_t)row * b.width] = receive_left(variant, row, rows);
            }
            const double last = block_compute_row(&b, row);
            if (rank < ranks - 1) {
                send_right(variant, row, rows, last);
            }
        }
        const double corner = b.values[(size_t)(rows - 1) * b.width + b.width - 1];
        if (ranks == 1) {
            b.values[1] = -corner;
        } else if (rank == ranks - 1) {
            send_corner(variant, -corner);
        } else if (rank == 0) {
            b.values[1] = receive_corner(variant);
        }
        if (variant == FENCE) {
            fence_until(fence_steps);
        }
    }
    const double elapsed = app_now_ns() - start;
    close_channel(variant);
    app_sample sample = {0, 0, 1};
    if (rank == 0) {
        const double corner = -b.values[1];
        const double expected = (iterations + 1.0) * (m + rows - 2);
        sample.time_ns = (long long)(elapsed / iterations);
        sample.throughput = 2.0 * (m - 1) * (rows - 1) * iterations / elapsed;
        sample.verified = fabs(corner - expected) / expected < 1e-8;
    }
    free(b.values);
    return sample;
}

static const char *check(const int size, const int work, const int job_ranks) {
    if (size < 2 || size - 1 < job_ranks) {
        return "the grid side m must satisfy m >= 2 and m - 1 >= ranks";
    }
    return work < 1 ? "WORK (timed passes) must be >= 1" : NULL;
}

int main(int argc, char **argv) {
    return app_main(argc, argv, "mpi_stencil", VARIANTS, 4, check, run);
}
