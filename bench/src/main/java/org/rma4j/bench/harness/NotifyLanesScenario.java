package org.rma4j.bench.harness;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.rma4j.notify.LaneProducer;
import org.rma4j.notify.NotificationHandler;
import org.rma4j.notify.NotifyLanes;
import org.rma4j.notify.NotifyLanesLayout;
import org.rma4j.shm.Membarrier;

/**
 * The notified put's queue alone, in two rows between the floor and the notified-put row, each a ping-pong of two
 * processes over a file of their own, with no rma4j call inside the loop (no window, request, matching, checks
 * or statistics):
 * <ul>
 *   <li>{@code lane-protocol}: the lanes' memory traffic of two ranks written out by hand, as the floor is: the
 *   entry's fields and inline payload with plain stores and a release store of its stamp (lanes of up to
 *   {@link NotifyLanesLayout#STAMP_POLLED_LANES_MAX} origins ring no doorbell); the receiver polls the stamp,
 *   then reads the inline payload. What the protocol's lines cost, with no code of the lanes' classes.</li>
 *   <li>{@code notify-lanes}: the same through the lanes' classes ({@link LaneProducer#offer},
 *   {@link NotifyLanes#poll} in a spin), lanes polled by their stamps as the runtime formats them for two
 *   ranks.</li>
 *   <li>{@code notify-lanes-summary}: the same classes over lanes formatted to poll the summary
 *   ({@link NotifyLanesLayout#POLL_SUMMARY}, the runtime's lanes beyond
 *   {@link NotifyLanesLayout#STAMP_POLLED_LANES_MAX} ranks): each offer also rings a doorbell, the receiver also
 *   polls the summary line. The difference to {@code notify-lanes} is what the doorbell's line costs.</li>
 * </ul>
 * A payload of up to {@link NotifyLanesLayout#INLINE_CAPACITY} bytes travels only inside the entry, and the
 * server echoes it from there; a longer one goes into the partner's data box first (a copy, as a notified put
 * writes the window at the call), and the entry carries its length.
 *
 * <p>The file ({@value #FILE_NAME} in the job directory), each region formatted by rank 0 as
 * {@link NotifyLanesLayout} lanes ({@value #LANES} lanes of {@link NotifyLanesLayout#LANE_CAPACITY_DEFAULT}
 * entries; each rank produces in lane 0 of its partner's region), each part 4096-byte aligned:
 *
 * <pre>
 *   0          L          2L         3L         4L         5L         6L         6L + B     6L + 2B
 *   +----------+----------+----------+----------+----------+----------+----------+----------+
 *   | lanes of | lanes of | lanes of | lanes of | lanes of | lanes of | data box | data box |
 *   | rank 0   | rank 1   | rank 0   | rank 1   | rank 0   | rank 1   | of 0     | of 1     |
 *   | lane-protocol row   | notify-lanes row    | notify-lanes-summary| payloads over 32 B  |
 *   +----------+----------+----------+----------+----------+----------+----------+----------+
 *   L = NotifyLanesLayout.lengthFor(LANES, capacity), B = the largest payload, both rounded up to 4096
 * </pre>
 */
final class NotifyLanesScenario {
    static final String FILE_NAME = "notify-lanes-pingpong";
    private static final int CAPACITY = NotifyLanesLayout.LANE_CAPACITY_DEFAULT;
    private static final int LANES = 2;
    private static final int TAG = 7;
    /** Lane regions: two per row. */
    private static final int REGIONS = 6;
    private static final int FENCE_MODE = Membarrier.isGlobalExpeditedSupported()
        ? NotifyLanesLayout.FENCE_ASYMMETRIC
        : NotifyLanesLayout.FENCE_SYMMETRIC;
    private static final long ENTRIES = NotifyLanesLayout.laneOffset(LANES, CAPACITY, 0);

    private NotifyLanesScenario() {
    }

    static void run(final RankContext context, final Path jobDirectory) throws Exception {
        final Path file = jobDirectory.resolve(FILE_NAME);
        final long lanesBytes = align(NotifyLanesLayout.lengthFor(LANES, CAPACITY));
        final long box = align(context.maxSize());
        final long length = REGIONS * lanesBytes + 2 * box;
        if (context.isClient()) {
            try (Arena arena = Arena.ofConfined();
                FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                final MemorySegment mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
                for (int region = 0; region < REGIONS; region++) {
                    NotifyLanes.format(mapping, region * lanesBytes, LANES, CAPACITY, FENCE_MODE,
                        region < 4 ? NotifyLanesLayout.pollModeFor(LANES) : NotifyLanesLayout.POLL_SUMMARY);
                }
            }
        }
        context.job.barrier();
        try (Arena arena = Arena.ofShared();
            FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            final MemorySegment mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
            final MemorySegment mine = mapping.asSlice(REGIONS * lanesBytes + context.rank * box, box);
            final MemorySegment peer = mapping.asSlice(REGIONS * lanesBytes + context.partner * box, box);
            final MemorySegment local = arena.allocate(context.maxSize(), 64);
            local.fill((byte)1);
            final MemorySegment arrived = arena.allocate(NotifyLanesLayout.INLINE_CAPACITY, 64);
            // NOTE: the slices made before timing, as the other rows' payload slices are.
            final MemorySegment[] localInline = new MemorySegment[context.sizes.length];
            final MemorySegment[] echoInline = new MemorySegment[context.sizes.length];
            for (int s = 0; s < context.sizes.length; s++) {
                final long size = context.sizes[s];
                localInline[s] = size <= NotifyLanesLayout.INLINE_CAPACITY ? local.asSlice(0, size) : null;
                echoInline[s] = size <= NotifyLanesLayout.INLINE_CAPACITY ? arrived.asSlice(0, size) : null;
            }
            final Protocol protocol = new Protocol(mapping, context.rank * lanesBytes, context.partner * lanesBytes,
                context.rank);
            context.pingPong("lane-protocol", (s, seq) -> {
                protocol.send(localInline[s], local, peer, context.sizes[s]);
                protocol.receive(arrived);
            }, (s, seq) -> {
                protocol.receive(arrived);
                protocol.send(echoInline[s], mine, peer, context.sizes[s]);
            });
            final NotificationHandler echo = n -> n.copyInlinePayloadTo(arrived, 0);
            for (final int first : new int[] {2, 4}) {
                final NotifyLanes own = new NotifyLanes(mapping, (first + context.rank) * lanesBytes, LANES, CAPACITY);
                final LaneProducer out = new LaneProducer(mapping, (first + context.partner) * lanesBytes, LANES,
                    CAPACITY, 0);
                context.pingPong(first == 2 ? "notify-lanes" : "notify-lanes-summary", (s, seq) -> {
                    send(out, localInline[s], local, peer, context.sizes[s], context.rank);
                    receive(own, echo);
                }, (s, seq) -> {
                    receive(own, echo);
                    send(out, echoInline[s], mine, peer, context.sizes[s], context.rank);
                });
            }
            context.job.barrier();
        } finally {
            context.removeSharedFile(file);
        }
    }

    /**
     * Offers {@code size} bytes: {@code inline} inside the entry, or (null) {@code size} bytes of {@code from}
     * copied into {@code peer} first.
     */
    private static void send(final LaneProducer out, final MemorySegment inline, final MemorySegment from,
        final MemorySegment peer, final long size, final int rank) {
        if (inline == null) {
            MemorySegment.copy(from, 0, peer, 0, size);
        }
        // NOTE: the partner's lane never holds more than one entry here: one round trip at a time.
        if (!out.offer(rank, TAG, 0, (int)size, 0, inline)) {
            throw new IllegalStateException("the partner's lane is full");
        }
    }

    private static void receive(final NotifyLanes own, final NotificationHandler handler) {
        while (own.poll(handler) == 0) {
            Thread.onSpinWait();
        }
    }

    /**
     * The lanes' publication rule written out (NotifyLanesLayout, "Publication rule") for one lane each way, without
     * the classes: the floor of the protocol's memory traffic. Its own lane regions, so its stamps do not meet
     * the classes'.
     */
    private static final class Protocol {
        private final MemorySegment mapping;
        private final long ownLanes;
        private final long peerLanes;
        private final int rank;
        private long sent;
        private long received;

        Protocol(final MemorySegment mapping, final long ownLanes, final long peerLanes, final int rank) {
            this.mapping = mapping;
            this.ownLanes = ownLanes;
            this.peerLanes = peerLanes;
            this.rank = rank;
        }

        void send(final MemorySegment inline, final MemorySegment from, final MemorySegment peer, final long size) {
            if (inline == null) {
                MemorySegment.copy(from, 0, peer, 0, size);
            }
            final long index = sent++;
            final long entry = peerLanes + ENTRIES + NotifyLanesLayout.entryOffset(index, CAPACITY);
            RankContext.LONG.set(mapping, entry + NotifyLanesLayout.SOURCE_OFFSET, (long)rank << Integer.SIZE | TAG);
            RankContext.LONG.set(mapping, entry + NotifyLanesLayout.DISPLACEMENT_OFFSET, 0L);
            RankContext.LONG.set(mapping, entry + NotifyLanesLayout.LENGTH_OFFSET, size);
            // NOTE: whole words (the harness's sizes are multiples of 8).
            final long words = inline == null ? 0 : inline.byteSize() / Long.BYTES;
            for (long w = 0; w < words; w++) {
                RankContext.LONG.set(mapping, entry + NotifyLanesLayout.INLINE_OFFSET + w * Long.BYTES,
                    inline.get(ValueLayout.JAVA_LONG_UNALIGNED, w * Long.BYTES));
            }
            RankContext.LONG.setRelease(mapping, entry + NotifyLanesLayout.STAMP_OFFSET,
                NotifyLanesLayout.stamp(index));
        }

        /** Waits for the next entry's stamp, then copies its inline words. */
        void receive(final MemorySegment into) {
            final long index = received++;
            final long entry = ownLanes + ENTRIES + NotifyLanesLayout.entryOffset(index, CAPACITY);
            final long stamp = NotifyLanesLayout.stamp(index);
            while ((long)RankContext.LONG.getAcquire(mapping, entry + NotifyLanesLayout.STAMP_OFFSET) != stamp) {
                Thread.onSpinWait();
            }
            final long length = (long)RankContext.LONG.get(mapping, entry + NotifyLanesLayout.LENGTH_OFFSET);
            final long words = length <= NotifyLanesLayout.INLINE_CAPACITY ? length / Long.BYTES : 0;
            for (long w = 0; w < words; w++) {
                into.set(ValueLayout.JAVA_LONG, w * Long.BYTES,
                    (long)RankContext.LONG.get(mapping, entry + NotifyLanesLayout.INLINE_OFFSET + w * Long.BYTES));
            }
        }
    }

    private static long align(final long bytes) {
        return (bytes + 4095) & ~4095L;
    }
}
