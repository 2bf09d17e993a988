package org.rma4j.notify;

import java.nio.file.Path;

import org.rma4j.shm.MappedFile;

/**
 * A producer process of {@link NotifyLanesCrossProcessTest}: a JVM started by the test with the test class
 * path, which maps the lanes file the test created and offers {@link Traffic} into one lane.
 *
 * <p>Arguments: a mode and its operands (below). Exit status 0 means every notification was offered; anything
 * else is a failure, described on standard error (kept in a log file by the test).
 */
final class LaneChild {
    private LaneChild() {
    }

    public static void main(final String[] args) {
        try {
            switch (args[0]) {
                case "produce-lane" -> produceLane(args);
                case "stall-lane" -> stallLane(args);
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
        } catch (final Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    /** {@code produce-lane PATH LANES LANE_CAPACITY LANE COUNT}: offers {@link Traffic} into lane LANE. */
    private static void produceLane(final String[] args) {
        final Path path = Path.of(args[1]);
        final int lanes = Integer.parseInt(args[2]);
        final int laneCapacity = Integer.parseInt(args[3]);
        final int lane = Integer.parseInt(args[4]);
        final long count = Long.parseLong(args[5]);
        try (MappedFile file = MappedFile.open(path)) {
            final LaneProducer producer = new LaneProducer(file.segment(), LaneFiles.LANES_OFFSET, lanes, laneCapacity,
                lane);
            if (!Traffic.produce(producer, lane, count, LaneChild::parentAlive)) {
                System.err.println("the test JVM is gone; producer " + lane + " stops");
                System.exit(2);
            }
        }
    }

    /**
     * {@code stall-lane PATH LANES LANE_CAPACITY LANE COUNT}: offers COUNT notifications of {@link Traffic}, then
     * writes the next one without publishing it and waits to be killed (fault (d): killed between writing and
     * publishing).
     */
    private static void stallLane(final String[] args) throws InterruptedException {
        final Path path = Path.of(args[1]);
        final int lanes = Integer.parseInt(args[2]);
        final int laneCapacity = Integer.parseInt(args[3]);
        final int lane = Integer.parseInt(args[4]);
        final long count = Long.parseLong(args[5]);
        final MappedFile file = MappedFile.open(path);
        final LaneProducer producer = new LaneProducer(file.segment(), LaneFiles.LANES_OFFSET, lanes, laneCapacity,
            lane);
        if (!Traffic.produce(producer, lane, count, LaneChild::parentAlive)) {
            System.exit(2);
        }
        while (producer.writeWithoutPublishing(lane, Traffic.tag(count), count, Traffic.length(count),
            Traffic.flags(count)) < 0) {
            Thread.sleep(1);
        }
        while (parentAlive()) {
            Thread.sleep(100);
        }
        System.exit(2);
    }

    private static boolean parentAlive() {
        return ProcessHandle.current().parent().map(ProcessHandle::isAlive).orElse(false);
    }
}
