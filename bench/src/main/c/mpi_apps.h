/*
 * Shared by the C applications of the rma4j bench harness (mpi_stencil.c, mpi_tree.c, mpi_cholesky.c): the
 * driver that runs the variants the way the Java ranks do (org.rma4j.bench.harness.AppMain), the result
 * line, the polling idle step and the median.
 *
 * usage of every application: mpirun -np P PROGRAM OUT_FILE VARIANTS_CSV SIZE WORK REPEATS WARMUP_MS
 *
 * Every rank runs untimed rounds of every variant until WARMUP_MS have passed at rank 0 (at least one; rank 0
 * decides and broadcasts), then REPEATS timed rounds; each round runs every variant once, starting one variant
 * later than the round before. Rank 0 appends one line per timed run to
 * OUT_FILE, in the format of AppMain.line:
 *
 *   <variant> <repetition> <timeNs> <throughput> <verified: true|false>
 *
 * and prints a progress line. The exit status is 1 if any run (untimed ones included) computed a wrong
 * result, 2 for bad arguments.
 */
#ifndef RMA4J_MPI_APPS_H
#define RMA4J_MPI_APPS_H

#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define APP_MAX_VARIANTS 8

/* This process's rank and the job's size, set by app_main. */
static int rank;
static int ranks;

/* What rank 0 measured in one run of one variant (Application.Sample). */
typedef struct {
    long long time_ns;
    double throughput;
    int verified;
} app_sample;

/* Runs one variant (an index into the program's variant names) once, collectively. */
typedef app_sample (*app_run_fn)(int variant, int size, int work);

static inline double app_now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/*
 * The idle step of a polling loop, as org.rma4j.examples.SpinWait: a pause hint on every call and a
 * sched_yield every 64 calls, so that a job with more ranks than cores lets the rank it waits for run.
 */
static inline void app_idle(int *spins) {
    if (++*spins % 64 == 0) {
        sched_yield();
    } else {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield");
#endif
    }
}

static int app_compare_ll(const void *a, const void *b) {
    const long long x = *(const long long *)a;
    const long long y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* The median of n samples (the mean of the two middle ones for an even n), 0 for none; sorts the array. */
static inline long long app_median(long long *samples, const int n) {
    if (n == 0) {
        return 0;
    }
    qsort(samples, (size_t)n, sizeof(long long), app_compare_ll);
    return n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

static inline void *app_alloc(const size_t bytes) {
    void *p = calloc(1, bytes > 0 ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* Parses VARIANTS_CSV into indices of names; returns the count, or -1 naming the unknown variant. */
static inline int app_parse_variants(const char *csv, const char *const *names, const int nnames, int *out) {
    int n = 0;
    char *copy = strdup(csv);
    for (char *tok = strtok(copy, ","); tok != NULL; tok = strtok(NULL, ",")) {
        int found = -1;
        for (int i = 0; i < nnames; i++) {
            if (strcmp(tok, names[i]) == 0) {
                found = i;
            }
        }
        if (found < 0 || n == APP_MAX_VARIANTS) {
            fprintf(stderr, "unknown variant %s\n", tok);
            free(copy);
            return -1;
        }
        out[n++] = found;
    }
    free(copy);
    return n;
}

/*
 * The main function of every application: MPI_Init, the rounds, the result lines, MPI_Finalize.
 * check(size, work, ranks) returns NULL if the problem is valid, else a message.
 */
static inline int app_main(int argc, char **argv, const char *program, const char *const *names, const int nnames,
    const char *(*check)(int size, int work, int ranks), const app_run_fn run) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    int variants[APP_MAX_VARIANTS];
    const int nvariants = argc == 7 ? app_parse_variants(argv[2], names, nnames, variants) : -1;
    const int size = argc == 7 ? atoi(argv[3]) : 0;
    const int work = argc == 7 ? atoi(argv[4]) : 0;
    const int repeats = argc == 7 ? atoi(argv[5]) : 0;
    const double warmup_s = argc == 7 ? atof(argv[6]) / 1e3 : 0;
    const char *invalid = nvariants > 0 ? check(size, work, ranks) : "bad arguments";
    if (invalid != NULL || repeats < 1) {
        if (rank == 0) {
            fprintf(stderr, "%s: %s\nusage: mpirun -np P %s OUT_FILE VARIANTS_CSV SIZE WORK REPEATS WARMUP_MS\n",
                program, invalid != NULL ? invalid : "REPEATS must be >= 1", program);
        }
        MPI_Finalize();
        return 2;
    }
    FILE *out = NULL;
    if (rank == 0) {
        out = fopen(argv[1], "a");
        if (out == NULL) {
            perror(argv[1]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    int failed = 0;
    const double warmup_start = MPI_Wtime();
    int again;
    do {
        for (int v = 0; v < nvariants; v++) {
            failed |= !run(variants[v], size, work).verified;
        }
        again = MPI_Wtime() - warmup_start < warmup_s;
        MPI_Bcast(&again, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } while (again);
    for (int repeat = 1; repeat <= repeats; repeat++) {
        for (int k = 0; k < nvariants; k++) {
            const int variant = variants[(k + repeat - 1) % nvariants];
            const app_sample sample = run(variant, size, work);
            failed |= !sample.verified;
            if (rank == 0) {
                fprintf(out, "%s %d %lld %.9g %s\n", names[variant], repeat, sample.time_ns, sample.throughput,
                    sample.verified ? "true" : "false");
                fflush(out);
                printf("%s %s, %d ranks, size %d, work %d, repetition %d/%d: %.6g, %.1f us: %s\n", program,
                    names[variant], ranks, size, work, repeat, repeats, sample.throughput, sample.time_ns / 1e3,
                    sample.verified ? "VERIFIED" : "FAILED");
                fflush(stdout);
            }
        }
    }
    if (rank == 0) {
        fclose(out);
    }
    MPI_Finalize();
    return rank == 0 && failed ? 1 : 0;
}

#endif
