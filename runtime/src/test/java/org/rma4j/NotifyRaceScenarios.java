package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Programs of the notified-access race tests ({@link NotifyRaceContractTest}): each forces, or runs long
 * enough to hit, an interleaving that lost a wake-up, reordered data or deadlocked before the fix. Ranks
 * pair up (0 with 1, 2 with 3, ...); an odd rank out only joins the collective calls.
 */
final class NotifyRaceScenarios {
    /** Rounds of the ping-pong scenarios (the waitAny hang showed within 25,000 rounds). */
    static final String ROUNDS_PROP_NAME = "rma4j.test.race.rounds";
    static final int ROUNDS_DEFAULT = 30_000;

    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);
    private static final int REQUEST_TAG = 1;
    private static final int NEVER_SENT_TAG = 2;
    private static final int ACK_TAG = 8;
    private static final int SHARING_THREADS = 3;
    private static final int SHARED_LANE_SENDS = 20_000;

    private NotifyRaceScenarios() {
    }

    private static int rounds() {
        return Integer.getInteger(ROUNDS_PROP_NAME, ROUNDS_DEFAULT);
    }

    private static int partner(final RmaJob job) {
        final int partner = job.rank() ^ 1;
        return partner < job.size() ? partner : -1;
    }

    /**
     * Single-threaded ranks. The even rank waits with waitAny(rA, rB) for each round's request (rB's tag is
     * sent only at the end); the odd rank sends the round number and waits for an ack. Before the fix a
     * drain for rB could complete rA after rA was checked, and waitAny slept on a request already complete.
     */
    static void waitAnyPingPong(final RmaJob job) {
        pingPong(job, false);
    }

    /**
     * As {@link #waitAnyPingPong}, while a second thread of the even rank drains the ring all the time
     * ({@link Window#unexpectedNotifications()}), completing the request the first thread waits for.
     */
    static void waitAnyBesideDrainingThread(final RmaJob job) {
        pingPong(job, true);
    }

    private static void pingPong(final RmaJob job, final boolean drainingThread) {
        final int rounds = rounds();
        final int partner = partner(job);
        try (Window window = job.allocateShared(64, 1)) {
            if (partner >= 0 && job.rank() % 2 == 0) {
                final AtomicBoolean stop = new AtomicBoolean();
                final AtomicReference<Throwable> drainFailure = new AtomicReference<>();
                final Thread drainer = new Thread(() -> {
                    try {
                        while (!stop.get()) {
                            window.unexpectedNotifications();
                            Thread.yield();
                        }
                    } catch (final Throwable t) {
                        drainFailure.set(t);
                    }
                }, "drainer");
                if (drainingThread) {
                    drainer.start();
                }
                try (NotifyRequest request = window.notifyInit(partner, REQUEST_TAG, 1);
                    NotifyRequest never = window.notifyInit(partner, NEVER_SENT_TAG, 1)) {
                    never.start();
                    for (int round = 0; round < rounds; round++) {
                        request.start();
                        assertEquals(0, NotifyRequest.waitAny(request, never), "round " + round);
                        assertEquals(new NotifyRequest.Status(partner, REQUEST_TAG, 1, 0, 8), request.status());
                        assertEquals(round, window.segment().get(ValueLayout.JAVA_LONG, 0), "data of round " + round);
                        window.putNotify(EMPTY, partner, 0, ACK_TAG);
                    }
                    assertEquals(1, NotifyRequest.waitAny(request, never));
                } finally {
                    stop.set(true);
                    joinQuietly(drainer);
                }
                assertNull(drainFailure.get());
            } else if (partner >= 0) {
                try (NotifyRequest ack = window.notifyInit(partner, ACK_TAG, 1)) {
                    for (int round = 0; round < rounds; round++) {
                        window.putNotify(MemorySegment.ofArray(new long[] {round}), partner, 0, REQUEST_TAG);
                        ack.start();
                        ack.await();
                    }
                }
                window.putNotify(EMPTY, partner, 8, NEVER_SENT_TAG);
            }
            job.barrier();
        }
    }

    /**
     * Operations from one origin to one target take effect in program order, whatever their size: a short
     * (formerly inline) notified put is in the window before the call returns, so a later fetch_and_op,
     * put or larger notified put to the same place is never overwritten by it.
     */
    static void programOrderOfShortNotifiedPuts(final RmaJob job) {
        final int partner = partner(job);
        try (Window window = job.allocateShared(256, 1)) {
            if (partner >= 0 && job.rank() % 2 == 0) {
                window.putNotify(MemorySegment.ofArray(new long[] {5}), partner, 0, 1);
                assertEquals(5, window.fetchAndOpNotify(1, partner, 0, Op.SUM, 2), "fetch_and_op after putNotify(5)");

                window.putNotify(MemorySegment.ofArray(new long[] {7}), partner, 64, 3);
                final long[] nines = new long[8];
                Arrays.fill(nines, 9);
                window.putNotify(nines, 0, nines.length, partner, 64, 4);

                window.lock(LockType.SHARED, partner);
                window.putNotify(MemorySegment.ofArray(new long[] {1}), partner, 192, 5);
                window.put(new long[] {2}, 0, 1, partner, 192);
                window.flush(partner);
                window.unlock(partner);

                window.putNotify(MemorySegment.ofArray(new int[] {3}), partner, 200, 6);
                window.accumulateNotify(MemorySegment.ofArray(new int[] {4}), 1, Datatype.INT, partner, 200, Op.SUM, 7);
            }
            job.barrier();
            if (partner >= 0 && job.rank() % 2 == 1) {
                try (NotifyRequest all = window.notifyInit(partner, Rma.ANY_TAG, 7)) {
                    all.start();
                    assertEquals(7, all.await().count());
                }
                final MemorySegment mine = window.segment();
                assertEquals(6, mine.get(ValueLayout.JAVA_LONG, 0), "putNotify(5) then fetch_and_op(+1)");
                for (int i = 0; i < 8; i++) {
                    assertEquals(9, mine.get(ValueLayout.JAVA_LONG, 64 + 8L * i), "8-byte then 64-byte putNotify");
                }
                assertEquals(2, mine.get(ValueLayout.JAVA_LONG, 192), "putNotify(1) then put(2) and flush");
                assertEquals(7, mine.get(ValueLayout.JAVA_INT, 200), "putNotify(3) then accumulateNotify(+4)");
            }
            job.barrier();
        }
    }

    /**
     * Thread A of the even rank waits for a notification from its partner while thread B sends the partner a
     * notification into a full ring; the partner makes room, receives B's notification and only then
     * answers A. Before the fix A slept holding the endpoint's monitor and B, draining while it waited for
     * room, blocked on it: neither finished.
     */
    static void sendIntoFullRingWhileAnotherThreadAwaits(final RmaJob job) throws InterruptedException {
        final int capacity = 4;
        final int partner = partner(job);
        try (Window window = job.allocateShared(64, 1,
            Info.of(RmaJob.NOTIFY_CAPACITY_INFO_KEY, Integer.toString(capacity)))) {
            if (partner >= 0 && job.rank() % 2 == 0) {
                for (int i = 0; i < capacity; i++) {
                    window.putNotify(EMPTY, partner, 0, 50); // the partner's ring is now full
                }
                job.barrier();
                final AtomicReference<Throwable> senderFailure = new AtomicReference<>();
                final Thread sender = new Thread(() -> {
                    try {
                        window.putNotify(EMPTY, partner, 0, 0);
                    } catch (final Throwable t) {
                        senderFailure.set(t);
                    }
                }, "sender");
                final AtomicBoolean started = new AtomicBoolean();
                window.notifications().beforeWait(() -> {
                    if (started.compareAndSet(false, true)) {
                        sender.start(); // while this thread is about to wait
                    }
                });
                // The sender, once it found the ring full, lets the partner make room.
                window.notifications().sends.onFullLane(job::barrier);
                try (NotifyRequest answer = window.notifyInit(partner, 1, 1)) {
                    answer.start();
                    assertEquals(partner, answer.await().source());
                } finally {
                    window.notifications().beforeWait(() -> {
                    });
                }
                assertTrue(started.get(), "the waiting thread never waited");
                window.notifications().sends.onFullLane(() -> {
                });
                sender.join();
                assertNull(senderFailure.get());
            } else if (partner >= 0) {
                job.barrier();
                job.barrier(); // the partner's sender has found this rank's ring full
                try (NotifyRequest fromSender = window.notifyInit(partner, 0, 1)) {
                    fromSender.start();
                    fromSender.await();
                }
                window.putNotify(EMPTY, partner, 0, 1);
                assertEquals(capacity, window.unexpectedNotifications());
            } else {
                job.barrier();
                job.barrier();
            }
            job.barrier();
        }
    }

    /**
     * A notification the peer publishes between the waiter's drain-and-check step and its wait is seen:
     * the waiter's wake-up condition includes the ring's head, and the publication signals it.
     */
    static void publishBetweenCheckAndWait(final RmaJob job) {
        final int partner = partner(job);
        try (Window window = job.allocateShared(64, 1)) {
            if (partner >= 0 && job.rank() % 2 == 0) {
                final NotifyRequest go = window.notifyInit(partner, 3, 1);
                final AtomicBoolean asked = new AtomicBoolean();
                window.notifications().beforeWait(() -> {
                    if (asked.compareAndSet(false, true)) {
                        window.putNotify(EMPTY, partner, 0, 9); // asks the partner to send tag 1 now
                    }
                });
                try (NotifyRequest request = window.notifyInit(partner, REQUEST_TAG, 1);
                    NotifyRequest never = window.notifyInit(partner, NEVER_SENT_TAG, 1)) {
                    request.start();
                    never.start();
                    assertEquals(0, NotifyRequest.waitAny(request, never));
                    assertTrue(asked.get());
                    window.notifications().beforeWait(() -> {
                    });
                    window.putNotify(EMPTY, partner, 0, 9);
                    assertEquals(1, NotifyRequest.waitAny(request, never));
                }
                go.close();
            } else if (partner >= 0) {
                try (NotifyRequest asked = window.notifyInit(partner, 9, 1)) {
                    asked.start();
                    asked.await();
                    window.putNotify(EMPTY, partner, 0, REQUEST_TAG);
                    asked.start();
                    asked.await();
                    window.putNotify(EMPTY, partner, 0, NEVER_SENT_TAG);
                }
            }
            job.barrier();
        }
    }

    /**
     * Threads of one rank share its lane at a target: {@value #SHARING_THREADS} threads of the odd rank each
     * send {@value #SHARED_LANE_SENDS} notifications to their partner through lanes of 4 entries, so they
     * contend for the lane's lock while one of them waits for room. The partner receives one at a time and
     * checks that each thread's notifications arrive once each, in the order that thread sent them (its
     * sequence number is the displacement), and that nothing else arrives.
     */
    static void threadsOfOneRankShareALane(final RmaJob job) throws InterruptedException {
        final int partner = partner(job);
        try (Window window = job.allocateShared((long)SHARING_THREADS * SHARED_LANE_SENDS, 1,
            Info.of(RmaJob.NOTIFY_CAPACITY_INFO_KEY, "4"))) {
            if (partner >= 0 && job.rank() % 2 == 1) {
                final AtomicReference<Throwable> failure = new AtomicReference<>();
                final Thread[] senders = new Thread[SHARING_THREADS];
                for (int t = 0; t < SHARING_THREADS; t++) {
                    final int thread = t;
                    senders[t] = new Thread(() -> {
                        try {
                            for (int i = 0; i < SHARED_LANE_SENDS; i++) {
                                window.putNotify(EMPTY, partner, (long)thread * SHARED_LANE_SENDS + i, thread);
                            }
                        } catch (final Throwable e) {
                            failure.set(e);
                        }
                    }, "sender-" + t);
                    senders[t].start();
                }
                for (final Thread sender : senders) {
                    sender.join();
                }
                assertNull(failure.get());
            } else if (partner >= 0) {
                final int[] next = new int[SHARING_THREADS];
                try (NotifyRequest any = window.notifyInit(partner, Rma.ANY_TAG, 1)) {
                    for (int i = 0; i < SHARING_THREADS * SHARED_LANE_SENDS; i++) {
                        any.start();
                        final NotifyRequest.Status status = any.await();
                        final int thread = status.tag();
                        assertTrue(thread >= 0 && thread < SHARING_THREADS, status::toString);
                        assertEquals((long)thread * SHARED_LANE_SENDS + next[thread], status.displacement(),
                            () -> "order of sender thread " + thread + ": " + status);
                        next[thread]++;
                    }
                }
                assertEquals(0, window.unexpectedNotifications());
            }
            job.barrier();
        }
    }

    /**
     * A sender whose one-entry lane is full waits for room and sleeps; its partner drains one notification at
     * a time with pauses, and each drain must wake the sleeping sender (the room-wait flag and the signal of the
     * sender's own word). The job runs with lost wake-ups failing the wait ({@code rma4j.wait.lostWakeUpFails})
     * where the caller sets it; each send is followed by the next at once, so the sender sleeps again and again.
     */
    static void senderAsleepOnAFullLane(final RmaJob job) {
        final int partner = partner(job);
        final int sends = rounds() / 10;
        try (Window window = job.allocateShared(64, 1, Info.of(RmaJob.NOTIFY_CAPACITY_INFO_KEY, "1"))) {
            if (partner >= 0 && job.rank() % 2 == 1) {
                for (int i = 0; i < sends; i++) {
                    window.putNotify(EMPTY, partner, i % 64, 4);
                }
            } else if (partner >= 0) {
                try (NotifyRequest request = window.notifyInit(partner, 4, 1)) {
                    for (int i = 0; i < sends; i++) {
                        if (i % 16 == 0) {
                            Thread.yield();
                        }
                        request.start();
                        assertEquals(i % 64, request.await().displacement());
                    }
                }
            }
            job.barrier();
        }
    }

    private static void joinQuietly(final Thread thread) {
        if (thread.getState() == Thread.State.NEW) {
            return;
        }
        try {
            thread.join();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
