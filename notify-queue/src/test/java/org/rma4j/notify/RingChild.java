package org.rma4j.notify;

import java.nio.file.Path;

import org.rma4j.shm.MappedFile;

/**
 * A producer process of {@link NotifyRingCrossProcessTest}: a JVM started by the test with the test class
 * path, which maps the ring file the test created and offers {@link Traffic} into it.
 *
 * <p>Arguments: {@code produce PATH CAPACITY PRODUCER_ID COUNT}. Exit status 0 means every notification was
 * offered; anything else is a failure, described on standard error (kept in a log file by the test).
 */
final class RingChild {
    private RingChild() {
    }

    public static void main(final String[] args) {
        try {
            if (!"produce".equals(args[0])) {
                throw new IllegalArgumentException("unknown mode " + args[0]);
            }
            final Path path = Path.of(args[1]);
            final int capacity = Integer.parseInt(args[2]);
            final int producerId = Integer.parseInt(args[3]);
            final long count = Long.parseLong(args[4]);
            try (MappedFile file = MappedFile.open(path)) {
                final NotifyRing ring = new NotifyRing(file.segment(), RingFiles.RING_OFFSET, capacity, producerId);
                if (!Traffic.produce(ring, producerId, count, RingChild::parentAlive)) {
                    System.err.println("the test JVM is gone; producer " + producerId + " stops");
                    System.exit(2);
                }
            }
        } catch (final Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    private static boolean parentAlive() {
        return ProcessHandle.current().parent().map(ProcessHandle::isAlive).orElse(false);
    }
}
