/*
 * Fan-in peer of the rma4j bench harness (org.rma4j.bench.harness.FanInSweep): every rank but 0 sends
 * PER_PRODUCER 8-byte messages to rank 0 with MPI_Send; rank 0 receives them one MPI_Recv(MPI_ANY_SOURCE) at a
 * time and times all of them from a barrier to the last one. The same counts as the Java ranks (FanInMain).
 *
 * usage: mpi_fanin OUT_FILE PER_PRODUCER WARMUP_ROUNDS ROUNDS
 * Rank 0 appends one line per timed round to OUT_FILE: "openmpi send-recv RANKS MESSAGES_PER_SECOND".
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define TAG 3

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 5) {
        if (rank == 0) {
            fprintf(stderr, "usage: mpi_fanin OUT_FILE PER_PRODUCER WARMUP_ROUNDS ROUNDS\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const long per_producer = atol(argv[2]);
    const int warmup = atoi(argv[3]);
    const int rounds = atoi(argv[4]);
    const long total = (long)(size - 1) * per_producer;
    FILE *out = NULL;
    if (rank == 0) {
        out = fopen(argv[1], "a");
        if (out == NULL) {
            perror(argv[1]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    int64_t value = 0;
    for (int round = 0; round < warmup + rounds; round++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            const double start = now_ns();
            for (long i = 0; i < total; i++) {
                MPI_Recv(&value, 8, MPI_BYTE, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            const double ns = now_ns() - start;
            if (round >= warmup) {
                fprintf(out, "openmpi send-recv %d %.1f\n", size, total * 1e9 / ns);
            }
        } else {
            for (long i = 0; i < per_producer; i++) {
                value = i;
                MPI_Send(&value, 8, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
            }
        }
    }
    if (out != NULL) {
        fclose(out);
    }
    MPI_Finalize();
    return 0;
}
