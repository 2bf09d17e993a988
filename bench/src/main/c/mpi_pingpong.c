/*
 * The MPI peer of the rma4j bench harness: the harness's protocols on an MPI_Win_allocate_shared window
 * of two ranks, built with mpicc.openmpi and mpicc.mpich and run under each one's mpirun.
 *
 * Ping-pong rows (rank 0 times each round trip and records half of it; rank 1 echoes the payload it got):
 *   send-recv       MPI_Send / MPI_Recv of the payload each way.
 *   put-flush-flag  inside lock_all: MPI_Put payload, MPI_Win_flush, MPI_Put of an 8-byte sequence number
 *                   into the partner's flag word, MPI_Win_flush; the receiver polls its own flag with an
 *                   acquire load and MPI_Win_sync (unified model).
 *   load-store      through MPI_Win_shared_query: memcpy into the partner's part, release store of the
 *                   flag; the receiver polls with acquire loads. No MPI call inside the loop.
 *   pscw            MPI_Win_start, MPI_Put, MPI_Win_complete, then MPI_Win_post, MPI_Win_wait (the
 *                   Notified Access paper's general active target benchmark); rank 1 in the opposite order.
 *   fence           MPI_Put, MPI_Win_fence, MPI_Win_fence; rank 1: fence, put, fence.
 * Single operations (rank 0 to rank 1's window inside lock_all; each sample is a batch of OP_BATCH calls):
 *   fetch-and-op (SUM), compare-and-swap (always succeeding), get (8 B), accumulate (8 B, SUM), each
 *   followed by MPI_Win_flush; lock-unlock (exclusive, outside lock_all); barrier (both ranks).
 * Bandwidth: put-bw, batches of MPI_Put of one size followed by one MPI_Win_flush.
 *
 * MPICH (built with -DRMA4J_PROGRESS_POLL) needs the target inside MPI for its one-sided calls: its
 * put-flush-flag numbers include the receiver's MPI_Iprobe polling and are a reference only.
 *
 * usage: mpi_pingpong OUT_FILE SIZES_CSV ITERATIONS WARMUP BW_SAMPLES [ROWS_CSV]
 * ROWS_CSV picks rows (e.g. "send-recv" for the harness's loaded ping-pong); default: every row.
 */
#include "bench_common.h"

#include <mpi.h>

static int rank;
static int partner;
static MPI_Win win;
static char *base;
static char *partner_base;
static char *local;
static double *samples;
static FILE *out;
static int64_t seq;
static const char *rows_wanted;

/* Whether ROWS_CSV (if given) names row. */
static int wanted(const char *row) {
    if (rows_wanted == NULL) {
        return 1;
    }
    const size_t length = strlen(row);
    for (const char *at = strstr(rows_wanted, row); at != NULL; at = strstr(at + 1, row)) {
        if ((at == rows_wanted || at[-1] == ',') && (at[length] == ',' || at[length] == '\0')) {
            return 1;
        }
    }
    return 0;
}

/*
 * Polls this rank's flag word. With RMA4J_PROGRESS_POLL (the harness sets it for MPICH) each round also
 * calls MPI_Iprobe: MPICH completes a put to a target only while the target is inside MPI, and
 * MPI_Win_sync alone does not make progress there.
 */
static void wait_flag(const int64_t value) {
    while (load_acquire(base + FLAG_DISP) != value) {
        MPI_Win_sync(win);
#ifdef RMA4J_PROGRESS_POLL
        int pending;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &pending, MPI_STATUS_IGNORE);
#endif
    }
}

static void send_recv(const long size, const int count) {
    for (int i = 0; i < count; i++) {
        if (rank == 0) {
            const double t0 = now_ns();
            MPI_Send(local, (int)size, MPI_BYTE, partner, 0, MPI_COMM_WORLD);
            MPI_Recv(local, (int)size, MPI_BYTE, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            samples[i] = (now_ns() - t0) / 2;
        } else {
            MPI_Recv(base + DATA_DISP, (int)size, MPI_BYTE, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(base + DATA_DISP, (int)size, MPI_BYTE, partner, 0, MPI_COMM_WORLD);
        }
    }
}

static void put_flag(const int64_t *value) {
    MPI_Put(value, 8, MPI_BYTE, partner, FLAG_DISP, 8, MPI_BYTE, win);
    MPI_Win_flush(partner, win);
}

static void put_flush_flag(const long size, const int count) {
    for (int i = 0; i < count; i++) {
        seq++;
        if (rank == 0) {
            const double t0 = now_ns();
            MPI_Put(local, (int)size, MPI_BYTE, partner, DATA_DISP, (int)size, MPI_BYTE, win);
            MPI_Win_flush(partner, win);
            put_flag(&seq);
            wait_flag(seq);
            samples[i] = (now_ns() - t0) / 2;
        } else {
            wait_flag(seq);
            MPI_Put(base + DATA_DISP, (int)size, MPI_BYTE, partner, DATA_DISP, (int)size, MPI_BYTE, win);
            MPI_Win_flush(partner, win);
            put_flag(&seq);
        }
    }
}

static void load_store(const long size, const int count) {
    for (int i = 0; i < count; i++) {
        seq++;
        if (rank == 0) {
            const double t0 = now_ns();
            memcpy(partner_base + DATA_DISP, local, size);
            store_release(partner_base + FLAG_DISP, seq);
            while (load_acquire(base + FLAG_DISP) != seq) {
            }
            samples[i] = (now_ns() - t0) / 2;
        } else {
            while (load_acquire(base + FLAG_DISP) != seq) {
            }
            memcpy(partner_base + DATA_DISP, base + DATA_DISP, size);
            store_release(partner_base + FLAG_DISP, seq);
        }
    }
}

static void pscw(const long size, const int count, MPI_Group peer) {
    for (int i = 0; i < count; i++) {
        if (rank == 0) {
            const double t0 = now_ns();
            MPI_Win_start(peer, 0, win);
            MPI_Put(local, (int)size, MPI_BYTE, partner, DATA_DISP, (int)size, MPI_BYTE, win);
            MPI_Win_complete(win);
            MPI_Win_post(peer, 0, win);
            MPI_Win_wait(win);
            samples[i] = (now_ns() - t0) / 2;
        } else {
            MPI_Win_post(peer, 0, win);
            MPI_Win_wait(win);
            MPI_Win_start(peer, 0, win);
            MPI_Put(base + DATA_DISP, (int)size, MPI_BYTE, partner, DATA_DISP, (int)size, MPI_BYTE, win);
            MPI_Win_complete(win);
        }
    }
}

static void fence(const long size, const int count) {
    for (int i = 0; i < count; i++) {
        if (rank == 0) {
            const double t0 = now_ns();
            MPI_Put(local, (int)size, MPI_BYTE, partner, DATA_DISP, (int)size, MPI_BYTE, win);
            MPI_Win_fence(0, win);
            MPI_Win_fence(0, win);
            samples[i] = (now_ns() - t0) / 2;
        } else {
            MPI_Win_fence(0, win);
            MPI_Put(base + DATA_DISP, (int)size, MPI_BYTE, partner, DATA_DISP, (int)size, MPI_BYTE, win);
            MPI_Win_fence(0, win);
        }
    }
}

enum op { FETCH_AND_OP, COMPARE_AND_SWAP, GET, ACCUMULATE, LOCK_UNLOCK, BARRIER };

static int64_t expected;

static void one_op(const enum op op) {
    const int64_t one = 1;
    int64_t result = 0;
    switch (op) {
    case FETCH_AND_OP:
        MPI_Fetch_and_op(&one, &result, MPI_INT64_T, partner, FETCH_DISP, MPI_SUM, win);
        MPI_Win_flush(partner, win);
        break;
    case COMPARE_AND_SWAP: {
        const int64_t next = expected + 1;
        MPI_Compare_and_swap(&next, &expected, &result, MPI_INT64_T, partner, CAS_DISP, win);
        MPI_Win_flush(partner, win);
        expected = result == expected ? next : result;
        break;
    }
    case GET:
        MPI_Get(&result, 8, MPI_BYTE, partner, GET_DISP, 8, MPI_BYTE, win);
        MPI_Win_flush(partner, win);
        break;
    case ACCUMULATE:
        MPI_Accumulate(&one, 1, MPI_INT64_T, partner, ACC_DISP, 1, MPI_INT64_T, MPI_SUM, win);
        MPI_Win_flush(partner, win);
        break;
    case LOCK_UNLOCK:
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, partner, 0, win);
        MPI_Win_unlock(partner, win);
        break;
    case BARRIER:
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    }
}

/* Rank 0 times batches of one operation; rank 1 waits in MPI_Barrier (inside MPI) except for BARRIER. */
static void single_op(const char *row, const enum op op, const int warmup, const int count) {
    if (!wanted(row)) {
        return;
    }
    if (rank == 0 || op == BARRIER) {
        for (int i = 0; i < warmup * OP_BATCH; i++) {
            one_op(op);
        }
        for (int i = 0; i < count; i++) {
            const double t0 = now_ns();
            for (int k = 0; k < OP_BATCH; k++) {
                one_op(op);
            }
            samples[i] = (now_ns() - t0) / OP_BATCH;
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        emit(out, row, 8, samples, count);
    }
}

static void bandwidth(const long size, const int count) {
    if (!wanted("put-bw")) {
        return;
    }
    const long batch = bw_batch(size);
    if (rank == 0) {
        for (int w = 0; w < BW_WARMUP_BATCHES; w++) {
            for (long k = 0; k < batch; k++) {
                MPI_Put(local, (int)size, MPI_BYTE, partner, DATA_DISP, (int)size, MPI_BYTE, win);
            }
            MPI_Win_flush(partner, win);
        }
        for (int i = 0; i < count; i++) {
            const double t0 = now_ns();
            for (long k = 0; k < batch; k++) {
                MPI_Put(local, (int)size, MPI_BYTE, partner, DATA_DISP, (int)size, MPI_BYTE, win);
            }
            MPI_Win_flush(partner, win);
            samples[i] = (now_ns() - t0) / batch;
        }
        emit(out, "put-bw", size, samples, count);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

typedef void (*pingpong_fn)(long size, int count);

static void pingpong(const char *row, pingpong_fn fn, const long *sizes, const int nsizes, const int iters,
    const int warmup) {
    if (!wanted(row)) {
        return;
    }
    for (int s = 0; s < nsizes; s++) {
        MPI_Barrier(MPI_COMM_WORLD);
        fn(sizes[s], warmup_for(warmup, sizes[s]));
        fn(sizes[s], iters);
        if (rank == 0) {
            emit(out, row, sizes[s], samples, iters);
        }
    }
}

static MPI_Group pscw_peer;

static void pscw_row(const long size, const int count) {
    pscw(size, count, pscw_peer);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int ranks;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if ((argc != 6 && argc != 7) || ranks != 2) {
        if (rank == 0) {
            fprintf(stderr, "usage: mpirun -np 2 %s OUT_FILE SIZES_CSV ITERATIONS WARMUP BW_SAMPLES [ROWS_CSV]\n",
                argv[0]);
        }
        MPI_Finalize();
        return 2;
    }
    partner = 1 - rank;
    rows_wanted = argc == 7 ? argv[6] : NULL;
    long sizes[MAX_SIZES];
    const int nsizes = parse_sizes(argv[2], sizes);
    const int iters = atoi(argv[3]);
    const int warmup = atoi(argv[4]);
    const int bw_samples = atoi(argv[5]);
    const long max = max_size(sizes, nsizes);

    MPI_Win_allocate_shared(DATA_DISP + max, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Aint partner_bytes;
    int partner_unit;
    MPI_Win_shared_query(win, partner, &partner_bytes, &partner_unit, &partner_base);
    memset(base, 0, DATA_DISP + max);
    local = malloc(max);
    memset(local, 1, max);
    const int nsamples = iters > bw_samples ? iters : bw_samples;
    /* The warmup round trips write samples too (and are overwritten): room for the larger count. */
    samples = malloc(sizeof(double) * (nsamples > warmup ? nsamples : warmup));
    if (rank == 0) {
        out = fopen(argv[1], "w");
        if (out == NULL) {
            perror(argv[1]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int length;
        MPI_Get_library_version(version, &length);
        fprintf(out, "# %s\n", strtok(version, "\n"));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    pingpong("send-recv", send_recv, sizes, nsizes, iters, warmup);

    MPI_Win_lock_all(0, win);
    pingpong("put-flush-flag", put_flush_flag, sizes, nsizes, iters, warmup);
    pingpong("load-store", load_store, sizes, nsizes, iters, warmup);
    single_op("fetch-and-op", FETCH_AND_OP, warmup, iters);
    single_op("compare-and-swap", COMPARE_AND_SWAP, warmup, iters);
    single_op("get", GET, warmup, iters);
    single_op("accumulate", ACCUMULATE, warmup, iters);
    for (int s = 0; s < nsizes; s++) {
        bandwidth(sizes[s], bw_samples);
    }
    MPI_Win_unlock_all(win);

    single_op("lock-unlock", LOCK_UNLOCK, warmup, iters);
    single_op("barrier", BARRIER, warmup, iters);

    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &partner, &pscw_peer);
    pingpong("pscw", pscw_row, sizes, nsizes, iters, warmup);
    MPI_Group_free(&pscw_peer);
    MPI_Group_free(&world);

    MPI_Win_fence(0, win);
    pingpong("fence", fence, sizes, nsizes, iters, warmup);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);

    if (rank == 0) {
        fclose(out);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
