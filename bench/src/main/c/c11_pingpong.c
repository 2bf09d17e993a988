/*
 * The physical floor of the rma4j bench harness: two processes (fork) ping-pong over a file in /dev/shm
 * with C11 atomics and memcpy, no library in between. Same protocol as the Java floor (FloorScenario):
 * the client copies the payload into the server's box and release-stores the sequence number in the
 * box's flag; the server, spinning on the flag with acquire loads, copies the payload into the client's
 * box (the echo) and release-stores the flag there; the client spins on its flag. Half round trip =
 * client's time per iteration / 2. Also: memcpy bandwidth between two private buffers (memcpy-bw).
 *
 * usage: c11_pingpong OUT_FILE SHM_FILE SIZES_CSV ITERATIONS WARMUP BW_SAMPLES
 */
#define _GNU_SOURCE
#include "bench_common.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define BOX_HEADER 128

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: %s OUT_FILE SHM_FILE SIZES_CSV ITERATIONS WARMUP BW_SAMPLES\n", argv[0]);
        return 2;
    }
    long sizes[MAX_SIZES];
    const int nsizes = parse_sizes(argv[3], sizes);
    const int iters = atoi(argv[4]);
    const int warmup = atoi(argv[5]);
    const int bw_samples = atoi(argv[6]);
    const long max = max_size(sizes, nsizes);
    const long box = BOX_HEADER + ((max + 127) / 128) * 128;

    const int fd = open(argv[2], O_CREAT | O_RDWR | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, 2 * box) != 0) {
        perror(argv[2]);
        return 1;
    }
    char *shm = mmap(NULL, 2 * box, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (shm == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    close(fd);
    char *to_client = shm;
    char *to_server = shm + box;

    const pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 1;
    }
    int64_t seq = 0;
    if (child == 0) {
        for (int s = 0; s < nsizes; s++) {
            for (int i = 0; i < warmup_for(warmup, sizes[s]) + iters; i++) {
                seq++;
                while (load_acquire(to_server) != seq) {
                }
                memcpy(to_client + BOX_HEADER, to_server + BOX_HEADER, sizes[s]);
                store_release(to_client, seq);
            }
        }
        _exit(0);
    }

    FILE *out = fopen(argv[1], "w");
    if (out == NULL) {
        perror(argv[1]);
        return 1;
    }
    fprintf(out, "# c11_pingpong\n");
    char *local = malloc(max);
    memset(local, 1, max);
    const int nsamples = iters > bw_samples ? iters : bw_samples;
    double *samples = malloc(sizeof(double) * nsamples);
    for (int s = 0; s < nsizes; s++) {
        const long size = sizes[s];
        const int untimed = warmup_for(warmup, size);
        for (int i = 0; i < untimed + iters; i++) {
            seq++;
            const double t0 = now_ns();
            memcpy(to_server + BOX_HEADER, local, size);
            store_release(to_server, seq);
            while (load_acquire(to_client) != seq) {
            }
            const double t1 = now_ns();
            if (i >= untimed) {
                samples[i - untimed] = (t1 - t0) / 2;
            }
        }
        emit(out, "floor", size, samples, iters);
    }
    int status = 0;
    waitpid(child, &status, 0);

    char *dst = malloc(max);
    for (int s = 0; s < nsizes; s++) {
        const long size = sizes[s];
        const long batch = bw_batch(size);
        for (long k = 0; k < batch * BW_WARMUP_BATCHES; k++) {
            memcpy(dst, local, size);
            COMPILER_BARRIER();
        }
        for (int i = 0; i < bw_samples; i++) {
            const double t0 = now_ns();
            for (long k = 0; k < batch; k++) {
                memcpy(dst, local, size);
                COMPILER_BARRIER();
            }
            samples[i] = (now_ns() - t0) / batch;
        }
        emit(out, "memcpy-bw", size, samples, bw_samples);
    }
    fclose(out);
    munmap(shm, 2 * box);
    unlink(argv[2]);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
