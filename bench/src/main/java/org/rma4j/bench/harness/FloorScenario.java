package org.rma4j.bench.harness;

import static org.rma4j.bench.harness.PingPongLayout.DATA_OFFSET;
import static org.rma4j.bench.harness.PingPongLayout.FLAG_OFFSET;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The Java floor: two processes ping-pong over a file they map with FFM, no rma4j call inside the
 * loop (the job is used only to learn the rank and for the barriers between sizes). Same protocol as
 * the C floor ({@code c11_pingpong.c}): the client copies the payload into the server's box and
 * release-stores the sequence number in the box's flag; the server, spinning with acquire loads,
 * copies the payload into the client's box (the echo) and release-stores that box's flag.
 *
 * <p>The file ({@value #FILE_NAME} in the job directory) holds two boxes laid out as
 * {@link PingPongLayout} (flag at 0, data at {@link PingPongLayout#DATA_OFFSET}): box 0 receives for
 * rank 0, box 1 for rank 1.
 */
final class FloorScenario {
    static final String FILE_NAME = "floor-pingpong";

    private FloorScenario() {
    }

    static void run(final RankContext context, final Path jobDirectory) throws Exception {
        final Path file = jobDirectory.resolve(FILE_NAME);
        final long box = PingPongLayout.partBytes(context.maxSize());
        if (context.isClient()) {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
                channel.truncate(0);
                channel.write(java.nio.ByteBuffer.allocate(1), 2 * box - 1);
            }
        }
        context.job.barrier();
        try (Arena arena = Arena.ofShared();
            FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            final MemorySegment mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, 2 * box, arena);
            final MemorySegment mine = mapping.asSlice(context.rank * box, box);
            final MemorySegment peer = mapping.asSlice(context.partner * box, box);
            final MemorySegment local = arena.allocate(context.maxSize(), 64);
            local.fill((byte)1);
            context.pingPong("floor", (s, seq) -> {
                MemorySegment.copy(local, 0, peer, DATA_OFFSET, context.sizes[s]);
                RankContext.LONG.setRelease(peer, FLAG_OFFSET, seq);
                RankContext.awaitLong(mine, FLAG_OFFSET, seq);
            }, (s, seq) -> {
                RankContext.awaitLong(mine, FLAG_OFFSET, seq);
                MemorySegment.copy(mine, DATA_OFFSET, peer, DATA_OFFSET, context.sizes[s]);
                RankContext.LONG.setRelease(peer, FLAG_OFFSET, seq);
            });
            context.job.barrier();
        } finally {
            context.removeSharedFile(file);
        }
    }
}
