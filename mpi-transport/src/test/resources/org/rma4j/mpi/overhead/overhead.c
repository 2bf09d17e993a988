/*
 * The C side of rma4j's binding overhead measurement (org.rma4j.mpi.overhead.OverheadDriver): the same calls
 * as OverheadRank.java makes through the FFM binding, in an MPI job of 2 ranks on 2 nodes.
 *
 * Rank 0 is the origin, rank 1 the target; both inside MPI_Win_lock_all on an MPI_Win_allocate window. For each
 * case the target waits in MPI_Barrier (which drives MPI's progress, as osc/pt2pt needs) while the origin times
 * WARMUP untimed then ITERATIONS timed repetitions, each one call followed by MPI_Win_flush(1), and prints the
 * median:
 *   OVH put 8 <ns>, OVH put 1024 <ns>, OVH get 8 <ns>, OVH get 1024 <ns>, OVH fetch_and_op 8 <ns>
 * Bandwidth: after 2 untimed, BW_SAMPLES batches of BW_BATCH MPI_Put of 1 MiB, each batch followed by one flush;
 * all bytes over all the batches' time, in MB/s (10^6 B/s):
 *   OVH put_bw 1048576 <MB/s>
 *
 * usage: overhead ITERATIONS WARMUP
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MIB (1 << 20)
#define BW_BATCH 8
#define BW_SAMPLES 30

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *samples, const int n) {
    qsort(samples, n, sizeof(double), compare);
    return samples[n / 2];
}

enum op { PUT, GET, FETCH_AND_OP };

static void once(const enum op op, const int size, char *buffer, int64_t *result, const MPI_Win win) {
    static const int64_t one = 1;
    switch (op) {
    case PUT:
        MPI_Put(buffer, size, MPI_BYTE, 1, 0, size, MPI_BYTE, win);
        break;
    case GET:
        MPI_Get(buffer, size, MPI_BYTE, 1, 0, size, MPI_BYTE, win);
        break;
    case FETCH_AND_OP:
        MPI_Fetch_and_op(&one, result, MPI_INT64_T, 1, 0, MPI_SUM, win);
        break;
    }
    MPI_Win_flush(1, win);
}

int main(int argc, char **argv) {
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int iterations = atoi(argv[1]);
    const int warmup = atoi(argv[2]);
    char *base;
    MPI_Win win;
    MPI_Win_allocate(2 * MIB, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    memset(base, 0, 2 * MIB);
    char *buffer = malloc(MIB);
    memset(buffer, 1, MIB);
    int64_t result;
    double *samples = malloc(sizeof(double) * (iterations > BW_SAMPLES ? iterations : BW_SAMPLES));
    const enum op ops[] = {PUT, PUT, GET, GET, FETCH_AND_OP};
    const int sizes[] = {8, 1024, 8, 1024, 8};
    const char *names[] = {"put", "put", "get", "get", "fetch_and_op"};
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    for (int c = 0; c < 5; c++) {
        if (rank == 0) {
            for (int i = 0; i < warmup; i++) {
                once(ops[c], sizes[c], buffer, &result, win);
            }
            for (int i = 0; i < iterations; i++) {
                const double t0 = now_ns();
                once(ops[c], sizes[c], buffer, &result, win);
                samples[i] = now_ns() - t0;
            }
            printf("OVH %s %d %.0f\n", names[c], sizes[c], median(samples, iterations));
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0) {
        double timed_ns = 0;
        for (int s = -2; s < BW_SAMPLES; s++) {
            const double t0 = now_ns();
            for (int j = 0; j < BW_BATCH; j++) {
                MPI_Put(buffer, MIB, MPI_BYTE, 1, 0, MIB, MPI_BYTE, win);
            }
            MPI_Win_flush(1, win);
            if (s >= 0) {
                timed_ns += now_ns() - t0;
            }
        }
        printf("OVH put_bw %d %.1f\n", MIB, (double)BW_SAMPLES * BW_BATCH * MIB / (timed_ns / 1e9) / 1e6);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    free(samples);
    free(buffer);
    MPI_Finalize();
    return 0;
}
