/*
 * The 16-ary tree reduction of the Notified Access paper (Belli and Hoefler, IPDPS 2015, section VI-B) in C
 * on MPI, the peer of org.rma4j.examples.notified.TreeReduction: an element-wise sum of a vector of SIZE
 * int64 to rank 0 over a 16-ary tree in heap order (parent of r is (r - 1) / 16), WORK timed rounds after
 * max(1, WORK / 10) untimed ones. Rounds are separated by a barrier; rank 0 times each round from the
 * barrier until it holds the sum, and reports the median round.
 *
 * Variants:
 *   sendrecv  a parent posts one MPI_Irecv per child and waits for all (MPI_Waitall); a child MPI_Sends its
 *             partial sum to its parent.
 *   putflush  in one lock_all epoch on an MPI_Win_allocate_shared window laid out as TreeLayout: a child
 *             MPI_Puts its partial sum into its slot at the parent, MPI_Win_flush, MPI_Accumulate(SUM 1) on
 *             the parent's counter, MPI_Win_flush; the parent polls the counter with
 *             MPI_Fetch_and_op(MPI_NO_OP) + MPI_Win_flush until it reaches (round + 1) x children, then
 *             MPI_Win_sync before it loads the slots.
 *
 * Verification: element i of rank r's contribution in round k is (k + 1) 1000003 (r + 1) + 31 i + r, so a
 * stale or missing partial sum changes the total; rank 0 compares every round's total with the sum it
 * computes itself (exact in int64). Rate: reductions per second at the median round time. Built with
 * -DRMA4J_WRONG_RESULT (only by the harness's tests) it adds a wrong contribution on purpose.
 */
#include "mpi_apps.h"

#define ARITY 16
#define TAG 16
#define COUNTER_OFFSET 0
#define SLOTS_OFFSET 256

static const char *const VARIANTS[] = {"sendrecv", "putflush"};
enum { SEND_RECV, PUT_FLUSH };

static int child_count(const int of) {
    const long first = (long)ARITY * of + 1;
    const long count = ranks - first;
    return (int)(count < 0 ? 0 : count > ARITY ? ARITY : count);
}

static int64_t contribution(const int round, const int of, const int index) {
    return (int64_t)(round + 1) * 1000003 * (of + 1) + 31L * index + of;
}

static long slot_offset(const int child, const int length) {
    return SLOTS_OFFSET + (long)child * length * 8;
}

static app_sample run(const int variant, const int length, const int rounds) {
    const int children = child_count(rank);
    const int parent = (rank - 1) / ARITY;
    const int warmup = rounds / 10 > 1 ? rounds / 10 : 1;
    int64_t *partial = app_alloc(sizeof(int64_t) * length);
    int64_t *received = app_alloc(sizeof(int64_t) * length * (children > 0 ? children : 1));
    MPI_Request *requests = app_alloc(sizeof(MPI_Request) * (children > 0 ? children : 1));
    long long *times = app_alloc(sizeof(long long) * rounds);
    MPI_Win win = MPI_WIN_NULL;
    char *base = NULL;
    const int64_t one = 1;
    long wrong = 0;
    if (variant == PUT_FLUSH) {
        MPI_Win_allocate_shared(slot_offset(children, length), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
        memset(base, 0, slot_offset(children, length));
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock_all(0, win);
    }
    for (int round = 0; round < warmup + rounds; round++) {
        for (int i = 0; i < length; i++) {
            partial[i] = contribution(round, rank, i);
        }
#ifdef RMA4J_WRONG_RESULT
        /* The harness's test of the verification: a wrong contribution at the last rank. */
        partial[0] += rank == ranks - 1;
#endif
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = app_now_ns();
        if (children > 0 && variant == SEND_RECV) {
            for (int c = 0; c < children; c++) {
                MPI_Irecv(received + (long)c * length, length, MPI_INT64_T, ARITY * rank + 1 + c, TAG,
                    MPI_COMM_WORLD, &requests[c]);
            }
            MPI_Waitall(children, requests, MPI_STATUSES_IGNORE);
        } else if (children > 0) {
            const int64_t expected = (int64_t)(round + 1) * children;
            int spins = 0;
            for (;;) {
                int64_t arrived = 0;
                MPI_Fetch_and_op(NULL, &arrived, MPI_INT64_T, rank, COUNTER_OFFSET, MPI_NO_OP, win);
                MPI_Win_flush(rank, win);
                if (arrived >= expected) {
                    break;
                }
                app_idle(&spins);
            }
            /* The slots are read by local loads: order them after the counter read (MPI-3.1 Example 11.7). */
            MPI_Win_sync(win);
            memcpy(received, base + SLOTS_OFFSET, sizeof(int64_t) * length * children);
        }
        for (int c = 0; c < children; c++) {
            for (int i = 0; i < length; i++) {
                partial[i] += received[(long)c * length + i];
            }
        }
        if (rank > 0 && variant == SEND_RECV) {
            MPI_Send(partial, length, MPI_INT64_T, parent, TAG, MPI_COMM_WORLD);
        } else if (rank > 0) {
            MPI_Put(partial, length, MPI_INT64_T, parent, slot_offset((rank - 1) % ARITY, length), length,
                MPI_INT64_T, win);
            /* The flush completes the partial sum at the parent before the counter announces it. */
            MPI_Win_flush(parent, win);
            MPI_Accumulate(&one, 1, MPI_INT64_T, parent, COUNTER_OFFSET, 1, MPI_INT64_T, MPI_SUM, win);
            MPI_Win_flush(parent, win);
        } else {
            const double end = app_now_ns();
            if (round >= warmup) {
                times[round - warmup] = (long long)(end - start);
            }
            for (int i = 0; i < length; i++) {
                int64_t sum = 0;
                for (int r = 0; r < ranks; r++) {
                    sum += contribution(round, r, i);
                }
                if (partial[i] != sum) {
                    wrong++;
                    break;
                }
            }
        }
    }
    if (variant == PUT_FLUSH) {
        MPI_Win_unlock_all(win);
        MPI_Win_free(&win);
    }
    app_sample sample = {0, 0, 1};
    if (rank == 0) {
        const long long median = app_median(times, rounds);
        sample.time_ns = median;
        sample.throughput = 1e9 / (double)(median > 1 ? median : 1);
        sample.verified = wrong == 0;
    }
    free(partial);
    free(received);
    free(requests);
    free(times);
    return sample;
}

static const char *check(const int size, const int work, const int job_ranks) {
    (void)job_ranks;
    return size < 1 || work < 1 ? "SIZE (vector length) and WORK (timed rounds) must be >= 1" : NULL;
}

int main(int argc, char **argv) {
    return app_main(argc, argv, "mpi_tree", VARIANTS, 2, check, run);
}
