package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * The programs of the notified-access contract tests, run at every rank in thread mode and as real
 * processes ({@link NotifyContractTest}).
 */
final class NotifyScenarios {
    private static final ValueLayout.OfLong JAVA_LONG_U = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfDouble JAVA_DOUBLE_U = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private NotifyScenarios() {
    }

    static void run(final String name, final RmaJob job) throws Throwable {
        final Method method = NotifyScenarios.class.getDeclaredMethod(name, RmaJob.class);
        try {
            method.invoke(null, job);
        } catch (final InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * Arrival order, wildcards, counting, status, arrivals before start, several active requests.
     * Every sender rank s puts tag t (1..3) into its own word 3s + t - 1 of rank 0's window, value
     * 10s + t, so a status's displacement names the put and the window holds that put's data.
     */
    static void matching(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        try (Window window = Scenarios.allocate(job, 8L * 3 * n + 8L * 4, 8)) {
            if (me != 0) {
                // Every other rank sends tags 1, 2, 3 to rank 0 before rank 0 starts any request.
                for (int tag = 1; tag <= 3; tag++) {
                    window.putNotify(MemorySegment.ofArray(new long[] {me * 10L + tag}), 0, 3L * me + tag - 1, tag);
                }
            }
            job.barrier();
            if (me == 0) {
                assertEquals(3 * (n - 1), window.unexpectedNotifications());
                // Exact (source, tag): the status names that put, and its data is in the window.
                if (n > 1) {
                    try (NotifyRequest exact = window.notifyInit(n - 1, 2, 1)) {
                        exact.start();
                        final NotifyRequest.Status status = exact.await();
                        assertEquals(new NotifyRequest.Status(n - 1, 2, 1, 3L * (n - 1) + 1, 8), status);
                        assertMatchedData(window, status);
                    }
                }
                // Any source, tag 1, one at a time: each sender's tag-1 put exactly once, with its data.
                final boolean[] seen = new boolean[n];
                try (NotifyRequest tagOne = window.notifyInit(Rma.ANY_SOURCE, 1, 1)) {
                    for (int i = 1; i < n; i++) {
                        tagOne.start();
                        final NotifyRequest.Status status = tagOne.await();
                        assertEquals(1, status.tag());
                        assertEquals(3L * status.source(), status.displacement());
                        assertFalse(seen[status.source()], "rank " + status.source() + " matched twice");
                        seen[status.source()] = true;
                        assertMatchedData(window, status);
                    }
                }
                // Any tag from one source: that source's remaining puts in the order it issued them.
                for (int source = 1; source < n; source++) {
                    try (NotifyRequest anyTag = window.notifyInit(source, Rma.ANY_TAG, 1)) {
                        for (int tag = source == n - 1 ? 3 : 2; tag <= 3; tag++) {
                            anyTag.start();
                            final NotifyRequest.Status status = anyTag.await();
                            assertEquals(new NotifyRequest.Status(source, tag, 1, 3L * source + tag - 1, 8), status,
                                "arrival order of rank " + source);
                            assertMatchedData(window, status);
                        }
                    }
                }
                assertEquals(0, window.unexpectedNotifications());
            }
            job.barrier();

            // Any source and any tag, started before the arrivals: the count completes the request and
            // the status names the last match (every rank, rank 0 included, sends one, tag 20 + rank).
            final NotifyRequest any = window.notifyInit(Rma.ANY_SOURCE, Rma.ANY_TAG, n);
            if (me == 0) {
                any.start();
            }
            job.barrier();
            if (me != 0) {
                window.putNotify(MemorySegment.ofArray(new long[] {100L + me}), 0, 3L * n + (me % 4), 20 + me);
            }
            job.barrier();
            if (me == 0) {
                // The others' notifications are delivered (matched, not complete) before rank 0's own is sent:
                // across origins, delivery order is the order the consumer finds them, not the order of the sends.
                assertFalse(any.test());
                window.putNotify(MemorySegment.ofArray(new long[] {100L}), 0, 3L * n, 20);
                final NotifyRequest.Status status = any.await();
                assertEquals(new NotifyRequest.Status(0, 20, n, 3L * n, 8), status, "the last match is rank 0's own");
                assertMatchedData(window, status);
                // Persistent: the same request is started again and nothing matches it yet.
                any.start();
                assertFalse(any.test());
            }
            any.close();
            job.barrier();

            // Several active requests: each arrival goes to the oldest matching started request. Rank 1
            // (rank 0 alone in a job of one) sends two tag-7 puts in order, to different words.
            final int sender = n > 1 ? 1 : 0;
            final long firstDisp = 3L * n + 1;
            final long secondDisp = 3L * n + 2;
            if (me == 0) {
                final NotifyRequest first = window.notifyInit(Rma.ANY_SOURCE, 7, 1);
                final NotifyRequest second = window.notifyInit(Rma.ANY_SOURCE, 7, 1);
                final NotifyRequest other = window.notifyInit(Rma.ANY_SOURCE, 8, n);
                first.start();
                second.start();
                other.start();
                job.barrier();
                sendMatchingRound(window, job, sender, firstDisp, secondDisp);
                final NotifyRequest[] all = {first, second, other};
                NotifyRequest.waitAll(all);
                assertEquals(new NotifyRequest.Status(sender, 7, 1, firstDisp, 8), first.status(),
                    "the older request receives the first arrival");
                assertEquals(new NotifyRequest.Status(sender, 7, 1, secondDisp, 8), second.status(),
                    "the younger request receives the second arrival");
                assertEquals(71L, window.segment().get(ValueLayout.JAVA_LONG, 8 * firstDisp));
                assertEquals(72L, window.segment().get(ValueLayout.JAVA_LONG, 8 * secondDisp));
                assertEquals(n, other.status().count());
                assertEquals(8, other.status().tag());
                assertEquals(-1, NotifyRequest.waitAny(all));
                for (final NotifyRequest request : all) {
                    request.close();
                    assertEquals(NotifyRequest.State.FREED, request.state());
                }
            } else {
                job.barrier();
                sendMatchingRound(window, job, sender, firstDisp, secondDisp);
            }
            job.barrier();
        }
    }

    private static void assertMatchedData(final Window window, final NotifyRequest.Status status) {
        final long expected = status.tag() >= 20 ? 100L + status.source() : status.source() * 10L + status.tag();
        assertEquals(expected, window.segment().get(ValueLayout.JAVA_LONG, 8 * status.displacement()),
            "data of the put that " + status + " names");
    }

    private static void sendMatchingRound(final Window window, final RmaJob job, final int sender, final long firstDisp,
        final long secondDisp) {
        if (job.rank() == sender) {
            window.putNotify(MemorySegment.ofArray(new long[] {71}), 0, firstDisp, 7);
            window.putNotify(MemorySegment.ofArray(new long[] {72}), 0, secondDisp, 7);
        }
        window.putNotify(MemorySegment.NULL, 0, 0, 8);
    }

    /** Inline and non-inline puts byte-exact; a notified get tells the target its data was read. */
    static void transfers(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int right = (me + 1) % n;
        final int left = (me + n - 1) % n;
        final int[] sizes = {0, 1, 7, 8, 31, 32, 33, 64, 1000, 65536};
        long total = 0;
        for (final int size : sizes) {
            total += size;
        }
        try (Window window = Scenarios.allocate(job, total, 1)) {
            final NotifyRequest request = window.notifyInit(left, Rma.ANY_TAG, 1);
            long disp = 0;
            for (final int size : sizes) {
                request.start();
                final byte[] data = pattern(me, size);
                window.putNotify(MemorySegment.ofArray(data), right, disp, size);
                final NotifyRequest.Status status = request.await();
                assertEquals(new NotifyRequest.Status(left, size, 1, disp, size), status);
                final byte[] seen = new byte[size];
                MemorySegment.copy(window.segment(), ValueLayout.JAVA_BYTE, disp, seen, 0, size);
                assertArrayEquals(pattern(left, size), seen, "put of " + size + " bytes from rank " + left);
                disp += size;
            }
            job.barrier();
            // Notified get: rank right reads my first 8 bytes and notifies me; then I may overwrite them.
            final MemorySegment mine = window.segment();
            mine.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 1234L + me);
            job.barrier();
            request.start();
            final MemorySegment read = MemorySegment.ofArray(new long[1]);
            window.getNotify(read, left, 0, 99);
            assertEquals(1234L + left, read.get(ValueLayout.JAVA_LONG, 0));
            final NotifyRequest readBy = window.notifyInit(right, 99, 1);
            readBy.start();
            readBy.await();
            mine.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, -1);
            request.close();
            readBy.close();
            job.barrier();
        }
        // Typed and accumulate variants.
        try (Window window = Scenarios.allocate(job, 8L * 4 * n, 8)) {
            final NotifyRequest request = window.notifyInit(Rma.ANY_SOURCE, 5, n);
            request.start();
            job.barrier();
            window.accumulateNotify(MemorySegment.ofArray(new long[] {1, 2}), 2, Datatype.LONG, 0, 0, Op.SUM, 5);
            if (me == 0) {
                request.await();
                assertEquals(n, window.segment().get(ValueLayout.JAVA_LONG, 0));
                assertEquals(2L * n, window.segment().get(ValueLayout.JAVA_LONG, 8));
            }
            job.barrier();
            request.close();
            final NotifyRequest fetched = window.notifyInit(Rma.ANY_SOURCE, 6, n);
            fetched.start();
            job.barrier();
            window.fetchAndOpNotify(1, 0, 2, Op.SUM, 6);
            final MemorySegment column = MemorySegment.ofArray(new long[] {me, me});
            window.putNotify(column, 2, Datatype.LONG, 0, 4, 1, Datatype.vector(2, 1, 2 * n, Datatype.LONG), 9);
            if (me == 0) {
                fetched.await();
                assertEquals(n, window.segment().get(ValueLayout.JAVA_LONG, 16));
            }
            job.barrier();
            fetched.close();
        }
    }

    /**
     * Notified get-accumulate, compare-and-swap and the request-based notified calls, outside every epoch: each
     * rank other than 0 makes one of each to rank 0, which counts them per tag and checks the data they carry.
     * Words of rank 0's window: 0 the sum, 8 the compare-and-swap word, 16 + 8 (r - 1) rank r's rputNotify,
     * 56 the word the gets read.
     */
    static void variants(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        try (Window window = Scenarios.allocate(job, 64 + 8L * n, 8)) {
            final MemorySegment mine = window.segment();
            mine.set(ValueLayout.JAVA_LONG, 56, 4242L + me);
            final NotifyRequest[] byTag = new NotifyRequest[6];
            for (int t = 0; t < byTag.length; t++) {
                byTag[t] = window.notifyInit(Rma.ANY_SOURCE, t + 1, me == 0 ? n - 1 : 0);
                byTag[t].start();
            }
            job.barrier();
            if (me != 0) {
                final MemorySegment result = MemorySegment.ofArray(new long[1]);
                window.getAccumulateNotify(MemorySegment.ofArray(new long[] {1}), 1, Datatype.LONG, result, 1,
                    Datatype.LONG, 0, 0, 1, Datatype.LONG, Op.SUM, 1);
                final long was = window.compareAndSwapNotify(0, me, 0, 1, 2);
                assertTrue(was == 0 || was > 0 && was < n, "compareAndSwapNotify returned " + was);
                final RmaRequest put = window.rputNotify(MemorySegment.ofArray(new long[] {1000L + me}), 0, 2L + me - 1,
                    3);
                final MemorySegment read = MemorySegment.ofArray(new long[1]);
                final RmaRequest get = window.rgetNotify(read, 0, 7, 4);
                final RmaRequest accumulate = window.raccumulateNotify(MemorySegment.ofArray(new long[] {10}), 1,
                    Datatype.LONG, 0, 0, Op.SUM, 5);
                final MemorySegment before = MemorySegment.ofArray(new long[1]);
                final RmaRequest getAccumulate = window.rgetAccumulateNotify(MemorySegment.ofArray(new long[] {100}), 1,
                    Datatype.LONG, before, 1, Datatype.LONG, 0, 0, 1, Datatype.LONG, Op.SUM, 6);
                RmaRequest.waitAll(put, get, accumulate, getAccumulate);
                assertEquals(4242L, read.get(ValueLayout.JAVA_LONG, 0), "rgetNotify read rank 0's word");
                assertTrue(before.get(ValueLayout.JAVA_LONG, 0) >= 11, "rgetAccumulateNotify saw the earlier sums");
            } else {
                for (int t = 0; t < byTag.length; t++) {
                    final NotifyRequest.Status status = byTag[t].await();
                    assertEquals(n - 1, status.count(), "tag " + (t + 1));
                }
                assertEquals(111L * (n - 1), mine.get(ValueLayout.JAVA_LONG, 0), "every notified sum applied");
                final long swapped = mine.get(ValueLayout.JAVA_LONG, 8);
                assertTrue(swapped > 0 && swapped < n, "one compareAndSwapNotify won: " + swapped);
                for (int r = 1; r < n; r++) {
                    assertEquals(1000L + r, mine.get(ValueLayout.JAVA_LONG, 16 + 8L * (r - 1)), "rputNotify of " + r);
                }
                assertEquals(0, window.unexpectedNotifications());
            }
            for (final NotifyRequest request : byTag) {
                request.close();
            }
            final MemorySegment eight = MemorySegment.ofArray(new long[1]);
            expect(ErrorClass.TAG, () -> window.compareAndSwapNotify(0, 1, 0, 0, -1));
            expect(ErrorClass.TAG, () -> window.rputNotify(eight, 0, 0, -1));
            expect(ErrorClass.RMA_RANGE, () -> window.compareAndSwapNotify(0, 1, 0, 8 + n, 1));
            expect(ErrorClass.OP, () -> window.raccumulateNotify(eight, 1, Datatype.LONG, 0, 0, Op.NO_OP, 1));
            expect(ErrorClass.TYPE, () -> window.getAccumulateNotify(eight, 1, Datatype.LONG, eight, 1, Datatype.INT, 0,
                0, 1, Datatype.LONG, Op.SUM, 1));
            assertEquals(0, window.compareAndSwapNotify(0, 1, Rma.PROC_NULL, 0, 1), "PROC_NULL: no operation");
            job.barrier();
            assertEquals(0, window.unexpectedNotifications(), "failed and PROC_NULL calls notify nobody");
            job.barrier();
        }
    }

    /**
     * One wait over an RMA request, a notification request and a message request ({@link RmaJob#waitAny},
     * {@link RmaJob#testAny}, {@link RmaJob#waitAll}): rank 0 waits while rank 1 notifies it only after a barrier
     * and rank 2 sends only after rank 0's go-ahead, so each wait can end only with the request named.
     */
    static void mixedWaits(final RmaJob job) {
        final int me = job.rank();
        final MemorySegment go = MemorySegment.ofArray(new long[] {1});
        try (Window window = Scenarios.allocate(job, 64, 8);
            org.rma4j.messaging.Messaging m = org.rma4j.messaging.Messaging.create(job, 256)) {
            if (me == 0) {
                final long[] in = new long[1];
                final NotifyRequest notified = window.notifyInit(1, 7, 1);
                notified.start();
                final org.rma4j.messaging.MessageRequest received = m.irecv(MemorySegment.ofArray(in), 2, 3);
                window.lockAll();
                final RmaRequest put = window.rput(MemorySegment.ofArray(new long[] {5}), 1, Datatype.LONG, 1, 0, 1,
                    Datatype.LONG);
                final Request[] mix = {null, received, notified, put};
                assertEquals(3, job.waitAny(mix), "the RMA request is complete at once");
                assertEquals(-1, job.testAny(mix), "nothing sent or notified yet");
                job.barrier();
                assertEquals(2, job.waitAny(mix), "rank 1's notification");
                assertEquals(9L, window.segment().get(ValueLayout.JAVA_LONG, 8));
                m.send(go, 2, 4);
                assertEquals(1, job.waitAny(mix), "rank 2's message");
                assertEquals(42L, in[0]);
                assertEquals(-1, job.waitAny(mix), "no request active");
                notified.start();
                job.barrier();
                job.waitAll(notified,
                    window.rput(MemorySegment.ofArray(new long[] {6}), 1, Datatype.LONG, 1, 0, 1, Datatype.LONG));
                assertFalse(notified.isActive());
                window.unlockAll();
                notified.close();
            } else if (me == 1) {
                job.barrier();
                window.putNotify(MemorySegment.ofArray(new long[] {9}), 0, 1, 7);
                job.barrier();
                window.putNotify(MemorySegment.ofArray(new long[] {10}), 0, 1, 7);
            } else {
                job.barrier();
                if (me == 2) {
                    m.recv(MemorySegment.ofArray(new long[1]), 0, 4);
                    m.send(MemorySegment.ofArray(new long[] {42}), 0, 3);
                }
                job.barrier();
            }
            job.barrier();
            if (me == 1) {
                assertEquals(6L, window.segment().get(ValueLayout.JAVA_LONG, 0), "rank 0's second rput");
            }
        }
    }

    /**
     * The probe: rank 1 sends rank 0 two notified puts (tags 5 and 6); rank 0, with no request active, probes
     * for tag 6 (blocking), then for tag 5 and for rank 2 (nonblocking), takes tag 5 with a request made from
     * what the probe told (as the Cholesky's consumer learns which tile arrived), and finds tag 6 still queued.
     */
    static void probe(final RmaJob job) {
        final int me = job.rank();
        try (Window window = Scenarios.allocate(job, 64, 8)) {
            job.barrier();
            if (me == 1) {
                window.putNotify(MemorySegment.ofArray(new long[] {55}), 0, 1, 5);
                window.putNotify(MemorySegment.ofArray(new long[] {66}), 0, 2, 6);
            } else if (me == 0) {
                final NotifyRequest.Status six = window.notifyProbe(Rma.ANY_SOURCE, 6);
                assertEquals(new NotifyRequest.Status(1, 6, 1, 2, 8), six);
                assertEquals(66L, window.segment().get(ValueLayout.JAVA_LONG, 16), "the data is there when probed");
                final NotifyRequest.Status five = window.notifyIprobe(1, Rma.ANY_TAG).orElseThrow();
                assertEquals(new NotifyRequest.Status(1, 5, 1, 1, 8), five, "the oldest from rank 1 comes first");
                assertTrue(window.notifyIprobe(2, Rma.ANY_TAG).isEmpty(), "nothing from rank 2");
                assertEquals(2, window.unexpectedNotifications(), "probes take nothing");
                try (NotifyRequest take = window.notifyInit(five.source(), five.tag(), 1)) {
                    take.start();
                    assertEquals(five, take.await());
                }
                assertTrue(window.notifyIprobe(Rma.ANY_SOURCE, 5).isEmpty(), "tag 5 was taken");
                assertEquals(six, window.notifyIprobe(1, 6).orElseThrow());
                try (NotifyRequest rest = window.notifyInit(Rma.ANY_SOURCE, Rma.ANY_TAG, 1)) {
                    rest.start();
                    assertEquals(six, rest.await());
                }
            }
            expect(ErrorClass.TAG, () -> window.notifyIprobe(0, -3));
            expect(ErrorClass.RANK, () -> window.notifyProbe(job.size(), 1));
            job.barrier();
        }
    }

    /** Every misuse raises its error class. */
    static void errors(final RmaJob job) {
        try (Window window = Scenarios.allocate(job, 64, 8)) {
            final MemorySegment eight = MemorySegment.ofArray(new long[1]);
            expect(ErrorClass.TAG, () -> window.putNotify(eight, 0, 0, -3));
            expect(ErrorClass.RANK, () -> window.putNotify(eight, job.size(), 0, 1));
            expect(ErrorClass.RMA_RANGE, () -> window.putNotify(eight, 0, 8, 1));
            expect(ErrorClass.DISP, () -> window.getNotify(eight, 0, -1, 1));
            expect(ErrorClass.RANK, () -> window.notifyInit(job.size(), 1, 1));
            expect(ErrorClass.TAG, () -> window.notifyInit(0, -5, 1));
            expect(ErrorClass.COUNT, () -> window.notifyInit(0, 1, -1));
            expect(ErrorClass.OP, () -> window.accumulateNotify(eight, 1, Datatype.LONG, 0, 0, Op.NO_OP, 1));
            final NotifyRequest request = window.notifyInit(0, 1, 1);
            expect(ErrorClass.REQUEST, request::test);
            expect(ErrorClass.REQUEST, request::await);
            request.start();
            expect(ErrorClass.REQUEST, request::start);
            request.close();
            expect(ErrorClass.REQUEST, request::start);
            expect(ErrorClass.REQUEST, request::test);
            final NotifyRequest orphan = window.notifyInit(0, 1, 1);
            window.putNotify(eight, Rma.PROC_NULL, 0, 1);
            job.barrier();
            window.free();
            expect(ErrorClass.WIN, orphan::start);
            expect(ErrorClass.WIN, () -> window.putNotify(eight, 0, 0, 1));
        }
    }

    /** Two ranks flood each other's 4-entry rings at once; both finish. */
    static void flood(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int partner = me ^ 1;
        final int count = Integer.getInteger("rma4j.test.flood", 20_000);
        try (Window window = Scenarios.allocate(job, 8, 8, Info.of(RmaJob.NOTIFY_CAPACITY_INFO_KEY, "4"))) {
            if (partner < n) {
                for (int i = 0; i < count; i++) {
                    window.putNotify(MemorySegment.NULL, partner, 0, 3);
                }
                try (NotifyRequest all = window.notifyInit(partner, 3, count)) {
                    all.start();
                    assertEquals(count, all.await().count());
                }
            }
            job.barrier();
        }
    }

    /** Three producers into one consumer: none lost, none duplicated, per-source order kept. */
    static void soak(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int count = Integer.getInteger("rma4j.test.soak", 100_000);
        try (Window window = Scenarios.allocate(job, me == 0 ? 8L * n : 0, 8)) {
            if (me == 0) {
                final NotifyRequest one = window.notifyInit(Rma.ANY_SOURCE, Rma.ANY_TAG, 1);
                final int[] next = new int[n];
                for (long received = 0; received < (long)count * (n - 1); received++) {
                    one.start();
                    final NotifyRequest.Status status = one.await();
                    assertEquals(next[status.source()], status.tag(), "order of rank " + status.source());
                    next[status.source()] = (status.tag() + 1) % 1_000_000_000;
                }
                for (int source = 1; source < n; source++) {
                    assertEquals(count, next[source], "notifications from rank " + source);
                }
                assertEquals(0, window.unexpectedNotifications());
            } else {
                for (int i = 0; i < count; i++) {
                    window.putNotify(MemorySegment.NULL, 0, 0, i);
                }
            }
            job.barrier();
        }
    }

    /**
     * A ring of ranks passing a token by notification, with more ranks than cores. Each waiter's CPU
     * time while it sleeps for the token is far below the time it waits (thread mode measures it).
     */
    static void tokenRing(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int rounds = 20;
        try (Window window = Scenarios.allocate(job, 8, 8)) {
            final NotifyRequest token = window.notifyInit((me + n - 1) % n, 1, 1);
            for (int round = 0; round < rounds; round++) {
                token.start();
                final long received;
                if (me == 0) {
                    window.putNotify(MemorySegment.ofArray(new long[] {round}), (me + 1) % n, 0, 1);
                    token.await();
                    received = window.segment().get(ValueLayout.JAVA_LONG, 0);
                } else {
                    token.await();
                    // NOTE: read before passing the token on: once it is passed, the left neighbour may put the
                    // next round's value here at any time (the data of a notified put lands at the call).
                    received = window.segment().get(ValueLayout.JAVA_LONG, 0);
                    window.putNotify(MemorySegment.ofArray(new long[] {round}), (me + 1) % n, 0, 1);
                }
                assertEquals(round, received);
            }
            job.barrier();
            // Rank 0 holds the token back for a while; the others wait for it asleep.
            final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            token.start();
            final long cpuBefore = threads.getCurrentThreadCpuTime();
            if (me == 0) {
                sleepMillis(1500);
                window.putNotify(MemorySegment.ofArray(new long[] {-1}), 1 % n, 0, 1);
                token.await();
            } else {
                token.await();
                window.putNotify(MemorySegment.ofArray(new long[] {-1}), (me + 1) % n, 0, 1);
            }
            final long cpuNs = threads.getCurrentThreadCpuTime() - cpuBefore;
            if (me == n - 1 && n > 1) {
                System.out.println("rank " + me + " waited for the token with " + cpuNs / 1_000_000 + " ms of CPU");
                assertTrue(cpuNs < 500_000_000L, "a rank waiting 1.5 s for a notification used " + cpuNs / 1_000_000
                    + " ms of CPU: it must sleep, not spin");
            }
            token.close();
            job.barrier();
        }
    }

    private static void sleepMillis(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static byte[] pattern(final int rank, final int size) {
        final byte[] data = new byte[size];
        for (int i = 0; i < size; i++) {
            data[i] = (byte)(rank * 31 + i * 7 + size);
        }
        return data;
    }

    /**
     * Inline data: rank 1's notified puts of 13 and 32 bytes carry their data in the notification, a 33-byte one
     * and a notified get or accumulate carry none. Rank 0 reads each match's inline data; after rank 1 put
     * later data to the same place (program order: the window holds the later data), the inline data of the
     * earlier match is still the earlier put's. Misuse: an active incomplete request, a buffer too short.
     */
    static void inlineData(final RmaJob job) {
        try (Window window = job.allocateShared(256, 1, Info.create())) {
            final int me = job.rank();
            final byte[] thirteen = bytes(1, 13); // whole words and a tail of bytes
            final byte[] thirtyTwo = bytes(2, 32);
            final byte[] thirtyThree = bytes(3, 33);
            if (me == 1) {
                window.putNotify(MemorySegment.ofArray(thirteen), 0, 0, 1);
                window.putNotify(MemorySegment.ofArray(thirtyTwo), 0, 64, 2);
                window.putNotify(MemorySegment.ofArray(thirtyThree), 0, 128, 3);
                window.lockAll();
                window.put(MemorySegment.ofArray(bytes(9, 8)), 0, 0);
                window.flush(0);
                window.unlockAll();
                window.putNotify(MemorySegment.NULL, 0, 0, 4);
                window.getNotify(MemorySegment.ofArray(new byte[8]), 0, 0, 5);
                window.accumulateNotify(MemorySegment.ofArray(new long[] {1}), 1, Datatype.LONG, 0, 200, Op.SUM, 6);
            } else if (me == 0) {
                final MemorySegment into = MemorySegment.ofArray(new byte[NotifyRequest.INLINE_BYTES]);
                try (NotifyRequest first = window.notifyInit(1, 1, 1);
                    NotifyRequest any = window.notifyInit(1, Rma.ANY_TAG, 1)) {
                    assertEquals(0, first.inlineData(into), "never matched: nothing to read");
                    first.start();
                    first.await();
                    for (final int tag : new int[] {2, 3, 4}) {
                        any.start();
                        assertEquals(tag, any.await().tag());
                        if (tag == 2) {
                            assertEquals(32, any.inlineData(into));
                            assertArrayEquals(thirtyTwo, into.toArray(ValueLayout.JAVA_BYTE));
                        } else if (tag == 3) {
                            assertEquals(0, any.inlineData(into), "33 bytes do not travel inline");
                        } else {
                            assertEquals(0, any.inlineData(into), "an empty put");
                            assertArrayEquals(bytes(9, 8),
                                window.segment().asSlice(0, 8).toArray(ValueLayout.JAVA_BYTE),
                                "the window holds the later put's data");
                        }
                    }
                    assertEquals(13, first.inlineData(into), "the first request's match is still its own");
                    assertArrayEquals(thirteen, into.asSlice(0, 13).toArray(ValueLayout.JAVA_BYTE),
                        "the inline data is the data of the put that was matched, not the window's later data");
                    expect(ErrorClass.COUNT, () -> first.inlineData(MemorySegment.ofArray(new byte[12])));
                    for (final int tag : new int[] {5, 6}) {
                        any.start();
                        assertEquals(tag, any.await().tag());
                        assertEquals(0, any.inlineData(into), "a notified get or accumulate carries no data");
                    }
                    any.start();
                    expect(ErrorClass.REQUEST, () -> any.inlineData(into)); // active, not complete
                }
            }
            job.barrier();
        }
    }

    /**
     * The array overloads of putNotify: a long[] part (from an offset, to a displacement that is no multiple of 8)
     * and a double[] of 32 bytes carry their data inline, 5 longs and an empty part carry none; every window
     * holds the data. A part outside its array (COUNT) and a negative tag (TAG) publish nothing: the next
     * notification rank 0 matches is rank 1's last one.
     */
    static void arrayPuts(final RmaJob job) {
        try (Window window = job.allocateShared(256, 1, Info.create())) {
            final long[] longs = {11, -22, 33, -44, 55};
            final double[] doubles = {0.5, -1.25, Double.MIN_VALUE, Double.NaN};
            if (job.rank() == 1) {
                window.putNotify(longs, 1, 3, 0, 3, 1);
                window.putNotify(doubles, 0, 4, 0, 64, 2);
                window.putNotify(longs, 0, 5, 0, 128, 3);
                window.putNotify(longs, 2, 0, 0, 200, 4);
                expect(ErrorClass.COUNT, () -> window.putNotify(longs, 3, 3, 0, 0, 5));
                expect(ErrorClass.COUNT, () -> window.putNotify(doubles, -1, 1, 0, 0, 5));
                expect(ErrorClass.TAG, () -> window.putNotify(longs, 0, 1, 0, 0, -1));
                window.putNotify(longs, 4, 1, 0, 240, 9);
            } else if (job.rank() == 0) {
                final MemorySegment into = MemorySegment.ofArray(new byte[NotifyRequest.INLINE_BYTES]);
                final MemorySegment memory = window.segment();
                try (NotifyRequest any = window.notifyInit(1, Rma.ANY_TAG, 1)) {
                    for (final int tag : new int[] {1, 2, 3, 4, 9}) {
                        any.start();
                        final NotifyRequest.Status status = any.await();
                        assertEquals(tag, status.tag(), "the next notification of rank 1");
                        final int inline = any.inlineData(into);
                        switch (tag) {
                            case 1 -> {
                                assertEquals(24, inline);
                                assertArrayEquals(new long[] {-22, 33, -44}, into.asSlice(0, 24).toArray(JAVA_LONG_U));
                                assertArrayEquals(new long[] {-22, 33, -44},
                                    memory.asSlice(3, 24).toArray(JAVA_LONG_U));
                            }
                            case 2 -> {
                                assertEquals(32, inline);
                                assertArrayEquals(doubles, into.toArray(JAVA_DOUBLE_U));
                                assertArrayEquals(doubles, memory.asSlice(64, 32).toArray(JAVA_DOUBLE_U));
                            }
                            case 3 -> {
                                assertEquals(0, inline, "40 bytes do not travel inline");
                                assertEquals(40, status.length());
                                assertArrayEquals(longs, memory.asSlice(128, 40).toArray(JAVA_LONG_U));
                            }
                            case 4 -> assertEquals(0, inline, "an empty part");
                            default -> {
                                assertEquals(8, inline);
                                assertEquals(55L, into.get(JAVA_LONG_U, 0));
                                assertEquals(55L, memory.get(JAVA_LONG_U, 240));
                            }
                        }
                    }
                }
            }
            job.barrier();
        }
    }

    private static byte[] bytes(final int seed, final int size) {
        final byte[] data = new byte[size];
        for (int i = 0; i < size; i++) {
            data[i] = (byte)(seed * 17 + i);
        }
        return data;
    }

    private static void expect(final ErrorClass errorClass, final WindowScenarios.ThrowingRunnable call) {
        final RmaException e = assertThrows(RmaException.class, call::run);
        assertEquals(errorClass, e.errorClass(), e.getMessage());
    }
}
