/*
 * Shared by the C peers of the rma4j bench harness: clock, argument parsing and the sample file format.
 *
 * Sample file: one line per (row, size): "<row> <sizeBytes> <v1> <v2> ...", values in nanoseconds
 * (half round trip for ping-pong rows, time per call for single operations, time per transfer for
 * bandwidth rows). Lines starting with '#' are comments. The Java ranks write the same format
 * (org.rma4j.bench.harness.SampleFile).
 *
 * Window layout, in bytes from the start of each rank's part (org.rma4j.bench.harness.PingPongLayout):
 *   0      flag word, written by the partner (its own 128-byte block)
 *   128    fetch_and_op target     256  compare_and_swap target
 *   384    get source              512  accumulate target
 *   1024   data: the payload the partner puts here, up to the largest size
 */
#ifndef RMA4J_BENCH_COMMON_H
#define RMA4J_BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FLAG_DISP 0
#define FETCH_DISP 128
#define CAS_DISP 256
#define GET_DISP 384
#define ACC_DISP 512
#define DATA_DISP 1024
#define MAX_SIZES 16
/* Calls per timed batch of the single-operation rows: clock_gettime costs about as much as one call. */
#define OP_BATCH 32
/* Bytes moved per timed batch of the bandwidth rows. */
#define BW_BATCH_BYTES (256L * 1024)
/* Untimed batches before the timed ones of each bandwidth size. */
#define BW_WARMUP_BATCHES 20
/* Most bytes the untimed round trips of one size may move (RankContext.WARMUP_BYTES). */
#define WARMUP_BYTES (256L << 20)

/* Untimed round trips before a size's timed ones: warmup, moving at most WARMUP_BYTES, at least 10. */
static inline int warmup_for(int warmup, long size) {
    long capped = WARMUP_BYTES / size < warmup ? WARMUP_BYTES / size : warmup;
    long floor = warmup < 10 ? warmup : 10;
    return (int)(capped > floor ? capped : floor);
}

static inline double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static inline int parse_sizes(const char *csv, long *sizes) {
    int n = 0;
    char *copy = strdup(csv);
    for (char *tok = strtok(copy, ","); tok != NULL && n < MAX_SIZES; tok = strtok(NULL, ",")) {
        sizes[n++] = atol(tok);
    }
    free(copy);
    return n;
}

static inline long max_size(const long *sizes, int n) {
    long m = 8;
    for (int i = 0; i < n; i++) {
        if (sizes[i] > m) {
            m = sizes[i];
        }
    }
    return m;
}

static inline long bw_batch(long size) {
    long n = BW_BATCH_BYTES / size;
    return n < 1 ? 1 : n;
}

static inline void emit(FILE *out, const char *row, long size, const double *samples, int n) {
    fprintf(out, "%s %ld", row, size);
    for (int i = 0; i < n; i++) {
        fprintf(out, " %.1f", samples[i]);
    }
    fputc('\n', out);
    fflush(out);
}

/* Compiler barrier: keeps a copy loop from being folded into one copy. */
#define COMPILER_BARRIER() __asm__ __volatile__("" ::: "memory")

static inline int64_t load_acquire(const void *p) {
    return __atomic_load_n((const int64_t *)p, __ATOMIC_ACQUIRE);
}

static inline void store_release(void *p, int64_t v) {
    __atomic_store_n((int64_t *)p, v, __ATOMIC_RELEASE);
}

#endif
