/*
 * The throughput and scale sweep of the rma4j bench harness on MPI, the peer of
 * org.rma4j.bench.harness.SweepMain, at whatever number of ranks mpirun starts (2, 4, 8):
 *
 *   fan-in-sendrecv  every rank but 0 MPI_Sends PER_PRODUCER messages of 8 bytes to rank 0, which
 *                    MPI_Recvs them all from MPI_ANY_SOURCE; value: rank 0's time from the barrier until the
 *                    last message, per message.
 *   fence            MPI_Win_fence(0) on an MPI_Win_allocate_shared window, every rank, CALLS times; value:
 *                    rank 0's time per call.
 *   barrier          MPI_Barrier(MPI_COMM_WORLD), every rank, CALLS times; value: rank 0's time per call.
 *
 * Each is run RUNS times; a run is an untimed pass of the same count (the warm-up) and a timed pass. Rank 0
 * writes one sample line per row (bench_common.h): "<row> <bytes> <run 1> ... <run RUNS>", in ns.
 *
 * usage: mpirun -np P mpi_sweep OUT_FILE PER_PRODUCER CALLS RUNS
 */
#include "bench_common.h"

#include <mpi.h>

#define TAG 5
#define MAX_RUNS 64

static int rank;
static int ranks;

/* One pass of the fan-in; returns rank 0's time per message. */
static double fan_in_pass(const long per_producer) {
    char message[8] = {0};
    const long total = per_producer * (ranks - 1);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = now_ns();
    if (rank == 0) {
        for (long i = 0; i < total; i++) {
            MPI_Recv(message, 8, MPI_BYTE, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    } else {
        memcpy(message, &rank, sizeof rank);
        for (long i = 0; i < per_producer; i++) {
            MPI_Send(message, 8, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
        }
    }
    const double elapsed = now_ns() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    return total > 0 ? elapsed / total : 0;
}

static double fence_pass(const long calls, MPI_Win win) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = now_ns();
    for (long i = 0; i < calls; i++) {
        MPI_Win_fence(0, win);
    }
    return (now_ns() - t0) / calls;
}

static double barrier_pass(const long calls) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = now_ns();
    for (long i = 0; i < calls; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return (now_ns() - t0) / calls;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const long per_producer = argc == 5 ? atol(argv[2]) : 0;
    const long calls = argc == 5 ? atol(argv[3]) : 0;
    const int runs = argc == 5 ? atoi(argv[4]) : 0;
    if (argc != 5 || ranks < 2 || per_producer < 1 || calls < 1 || runs < 1 || runs > MAX_RUNS) {
        if (rank == 0) {
            fprintf(stderr, "usage: mpirun -np P (P >= 2) %s OUT_FILE PER_PRODUCER CALLS RUNS (RUNS <= %d)\n",
                argv[0], MAX_RUNS);
        }
        MPI_Finalize();
        return 2;
    }
    FILE *out = NULL;
    if (rank == 0) {
        out = fopen(argv[1], "w");
        if (out == NULL) {
            perror(argv[1]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int length;
        MPI_Get_library_version(version, &length);
        fprintf(out, "# %s\n# %d ranks\n", strtok(version, "\n"), ranks);
    }
    double values[MAX_RUNS];
    for (int run = 0; run < runs; run++) {
        fan_in_pass(per_producer);
        values[run] = fan_in_pass(per_producer);
    }
    if (rank == 0) {
        emit(out, "fan-in-sendrecv", 8, values, runs);
    }

    char *base;
    MPI_Win win;
    MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    for (int run = 0; run < runs; run++) {
        fence_pass(calls, win);
        values[run] = fence_pass(calls, win);
    }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_free(&win);
    if (rank == 0) {
        emit(out, "fence", 0, values, runs);
    }

    for (int run = 0; run < runs; run++) {
        barrier_pass(calls);
        values[run] = barrier_pass(calls);
    }
    if (rank == 0) {
        emit(out, "barrier", 0, values, runs);
        fclose(out);
    }
    MPI_Finalize();
    return 0;
}
