package org.rma4j.shm;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The second process of {@link CrossProcessTest}: a JVM started by the test with the test class path,
 * which maps a file the test created and plays the other side of a protocol.
 *
 * <p>Exit status 0 means its side of the protocol completed; anything else is a failure, described on
 * its standard error (which the test keeps in a log file).
 */
final class ShmChild {
    /** Offsets in the ping-pong and wake files. */
    static final long COUNTER = 0;
    static final long CHILD_FUTEX_AVAILABLE = 128;
    static final long CHILD_RECHECK_WAKES = 256;
    static final long ANNOUNCE = 384;
    /** Wait word by which the parent tells the child it may exit. */
    static final long ACK = 512;

    /** Offset, in rank 0's scratch slot, of the wait word by which rank 0 lets the other ranks exit. */
    static final long BARRIER_DONE = 8;

    private static final long GIVE_UP_NS = TimeUnit.SECONDS.toNanos(120);

    private ShmChild() {
    }

    public static void main(final String[] args) {
        try {
            switch (args[0]) {
                case "ping-pong" -> pingPong(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                    Integer.parseInt(args[4]));
                case "wake" -> wake(Path.of(args[1]));
                case "join" -> joinAndLinger(Path.of(args[1]), Integer.parseInt(args[2]));
                case "barrier" -> barrier(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
        } catch (final Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    /**
     * Plays the odd turns: waits for {@code 2i + 1} and answers {@code 2i + 2}.
     */
    private static void pingPong(final Path path, final int rounds, final int spins, final int yields) {
        try (MappedFile file = MappedFile.open(path)) {
            final MemorySegment segment = file.segment();
            Words.putIntVolatile(segment, CHILD_FUTEX_AVAILABLE, Futex.isAvailable() ? 1 : 0);
            final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, spins, yields);
            final Liveness parentAlive = ShmChild::checkParent;
            for (int i = 0; i < rounds; i++) {
                final int odd = 2 * i + 1;
                strategy.awaitInt(segment, COUNTER, value -> value == odd, parentAlive);
                if (i == rounds - 1) {
                    // NOTE: the statistics must be visible before the last answer, which the parent waits for.
                    Words.putIntVolatile(segment, CHILD_RECHECK_WAKES, (int)WaitStrategy.recheckWakes());
                }
                WaitWords.putIntVolatileAndWake(segment, COUNTER, odd + 1);
            }
            strategy.awaitInt(segment, ACK, value -> value == 1, ShmChild::checkParent);
        }
    }

    /**
     * Waits until the parent announces that it is about to sleep on the counter's futex, then sets the
     * counter and wakes it until the parent acknowledges.
     */
    private static void wake(final Path path) throws InterruptedException {
        try (MappedFile file = MappedFile.open(path)) {
            final MemorySegment segment = file.segment();
            final long deadline = System.nanoTime() + GIVE_UP_NS;
            while (Words.getIntVolatile(segment, ANNOUNCE) != 1) {
                giveUpAfter(deadline, "the parent to announce its sleep");
                Thread.sleep(1);
            }
            Words.putIntVolatile(segment, COUNTER, 1);
            while (Words.getIntVolatile(segment, ACK) != 1) {
                Futex.wake(segment, COUNTER, Integer.MAX_VALUE);
                giveUpAfter(deadline, "the parent to acknowledge its wake-up");
                Thread.sleep(1);
            }
        }
    }

    /**
     * Joins {@code rank} and stays alive (until killed, or until its parent is gone).
     */
    private static void joinAndLinger(final Path path, final int rank) throws InterruptedException {
        try (ControlFile control = ControlFile.open(path)) {
            control.join(rank);
            final long deadline = System.nanoTime() + GIVE_UP_NS;
            while (System.nanoTime() - deadline < 0) {
                checkParent();
                Thread.sleep(50);
            }
        }
    }

    /**
     * Joins {@code rank} and passes {@code rounds} pairs of job barriers, checking between them that
     * every rank's scratch slot holds the round number; then waits for rank 0's permission to leave.
     */
    private static void barrier(final Path path, final int rank, final int rounds) {
        try (ControlFile control = ControlFile.open(path)) {
            control.join(rank);
            final DisseminationBarrier barrier = control.barrier(rank, WaitStrategy.defaultStrategy(),
                control.liveness(rank, true));
            for (int round = 1; round <= rounds; round++) {
                Words.putInt(control.scratch(rank), 0, round);
                barrier.await();
                for (int other = 0; other < control.ranks(); other++) {
                    final int seen = Words.getInt(control.scratch(other), 0);
                    if (seen != round) {
                        throw new AssertionError(
                            "rank " + rank + " in round " + round + " saw " + seen + " in the slot of rank " + other);
                    }
                }
                barrier.await();
            }
            WaitStrategy.defaultStrategy().awaitInt(control.scratch(0), BARRIER_DONE, value -> value == 1,
                control.liveness(rank, false));
            control.markFinished(rank);
        }
    }

    private static void checkParent() {
        if (ProcessHandle.current().parent().map(ProcessHandle::isAlive).orElse(false)) {
            return;
        }
        throw new PeerFailedException(0, "the test JVM is gone");
    }

    private static void giveUpAfter(final long deadline, final String what) {
        if (System.nanoTime() - deadline > 0) {
            throw new IllegalStateException("gave up waiting for " + what);
        }
    }
}
