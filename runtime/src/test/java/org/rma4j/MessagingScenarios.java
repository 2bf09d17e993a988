package org.rma4j;

import org.rma4j.messaging.MessageRequest;
import org.rma4j.messaging.MessageStatus;
import org.rma4j.messaging.Messaging;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.rma4j.shm.CrossMemory;

/**
 * The programs of the messaging contract tests, run at every rank in thread mode and as real processes
 * ({@link MessagingContractTest}).
 */
final class MessagingScenarios {
    /** A bounce size that is not a multiple of the ring alignment. */
    static final int BOUNCE = 6000;
    private static final int MIB = 1024 * 1024;

    private MessagingScenarios() {
    }

    /**
     * Ping-pong between ranks 0 and 1 of every boundary size (empty, inline, bounce size, multi-chunk
     * rendezvous), byte-exact, with the default and a small bounce buffer; each size once as it comes,
     * once with the receive posted first and once arriving unexpected.
     */
    static void pingPong(final RmaJob job) {
        for (final long bounce : new long[] {Messaging.BOUNCE_BYTES_PER_PEER_DEFAULT, BOUNCE}) {
            try (Messaging m = Messaging.create(job, bounce)) {
                final TreeSet<Integer> sizes = new TreeSet<>(
                    List.of(0, 1, 31, 32, 33, 4096, (int)bounce - 1, (int)bounce, (int)bounce + 1, MIB, 16 * MIB));
                for (final int size : sizes) {
                    for (int path = 0; path < 3; path++) {
                        pingPongOnce(m, size, path);
                    }
                }
            }
        }
    }

    private static void pingPongOnce(final Messaging m, final int size, final int path) {
        final int me = m.rank();
        final int tag = size % 1000 + path;
        if (me == 0) {
            final byte[] ping = pattern(size, path, size);
            final byte[] pong = new byte[size];
            final MessageRequest reply = m.irecv(MemorySegment.ofArray(pong), 1, tag + 1);
            if (path == 1) {
                m.barrier();
            }
            final MessageRequest sent = m.isend(MemorySegment.ofArray(ping), 1, tag);
            if (path == 2) {
                m.barrier();
            }
            sent.await();
            assertEquals(new MessageStatus(1, tag + 1, size), reply.await());
            assertArrayEquals(ping, pong, "echo of " + size + " bytes, path " + path);
        } else if (me == 1) {
            final byte[] ping = new byte[size];
            MessageStatus status;
            if (path == 1) {
                final MessageRequest posted = m.irecv(MemorySegment.ofArray(ping), 0, tag);
                m.barrier();
                status = posted.await();
            } else {
                if (path == 2) {
                    m.barrier();
                }
                status = m.recv(MemorySegment.ofArray(ping), 0, tag);
            }
            assertEquals(new MessageStatus(0, tag, size), status);
            assertArrayEquals(pattern(size, path, size), ping, "ping of " + size + " bytes, path " + path);
            m.send(MemorySegment.ofArray(ping), 0, tag + 1);
        } else if (path != 0) {
            m.barrier();
        }
    }

    /**
     * Ranks 1..n-1 send rank 0 a stream of messages of mixed tags and protocols (eager and rendezvous
     * alternate); rank 0 receives them with exact and wildcard patterns, and each pattern sees each
     * source's messages in the order they were sent. A wildcard receive posted before a barrier does
     * not take the barrier's messages.
     */
    static void orderAndWildcards(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int count = 60;
        final int[] sizes = {8, 200, 1000, 70_000, 256, 257};
        try (Messaging m = Messaging.create(job, 256)) {
            if (me == 0) {
                final MemorySegment early = MemorySegment.ofArray(new long[1]);
                final MessageRequest wildcard = m.irecv(early, Rma.ANY_SOURCE, Rma.ANY_TAG);
                m.barrier();
                m.barrier();
                final MessageStatus first = wildcard.await();
                assertEquals(new MessageStatus(n > 1 ? 1 : 0, 77, 8), first);
                assertEquals(1234, early.get(ValueLayout.JAVA_LONG, 0));
            } else {
                m.barrier();
                if (me == 1) {
                    m.send(new long[] {1234}, 0, 1, 0, 77);
                }
                m.barrier();
            }
            if (me == 0 && n == 1) {
                m.send(new long[] {1234}, 0, 1, 0, 77);
                assertEquals(new MessageStatus(0, 77, 8), m.recv(new long[1], 0, 1, 0, 77));
            }
            // NOTE: the others send only once rank 0 took rank 1's message: MPI orders messages per sender, so a
            // wildcard receive may take another sender's later message first (different lanes; MPI-3.1 §3.5).
            m.barrier();

            if (me != 0) {
                final List<MessageRequest> pending = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    final MemorySegment payload = sequenced(me, i, sizes[i % sizes.length]);
                    if (i % 2 == 0) {
                        m.send(payload, 0, i % 3);
                    } else {
                        pending.add(m.isend(payload, 0, i % 3));
                    }
                }
                MessageRequest.waitAll(pending.toArray(MessageRequest[]::new));
            } else if (n > 1) {
                final boolean[][] taken = new boolean[n][count];
                final MemorySegment buffer = MemorySegment.ofArray(new byte[70_000]);
                // Exact source and tag: rank n-1's tag-1 messages.
                for (int k = 0; k < count / 3; k++) {
                    receiveNextInOrder(m, buffer, n - 1, 1, taken, sizes);
                }
                // Any tag from rank 1: the rest of its messages.
                final int fromOne = n == 2 ? count - count / 3 : count;
                for (int k = 0; k < fromOne; k++) {
                    receiveNextInOrder(m, buffer, 1, Rma.ANY_TAG, taken, sizes);
                }
                // Any source, tag 0: those of ranks 2..n-1.
                for (int k = 0; k < (n - 2) * (count / 3); k++) {
                    assertTrue(receiveNextInOrder(m, buffer, Rma.ANY_SOURCE, 0, taken, sizes) >= 2);
                }
                // Any source and tag: all the rest.
                final int rest = (n - 1) * count - count / 3 - fromOne - (n - 2) * (count / 3);
                for (int k = 0; k < rest; k++) {
                    receiveNextInOrder(m, buffer, Rma.ANY_SOURCE, Rma.ANY_TAG, taken, sizes);
                }
            }
            m.barrier();
        }
    }

    /**
     * Fan-in of small messages over many laps of the bounce rings, the credit coming back in batches: every
     * other rank sends 20,000 messages to rank 0, alternately of 8 bytes (inline: in the notification only) and of
     * 40 (eager, through the ring), which rank 0 takes from any source, checking each source's order across the two
     * kinds. Then rank 1 sends 3,000 more of 40 bytes while rank 0 receives each by polling {@code test()} (never a
     * blocking call of Messaging): a test that finds its receive incomplete returns all the credit it owes, so
     * rank 1, out of credit after a few laps, is never left waiting for credit that a polling receiver keeps.
     */
    static void fanInAndPollingReceiver(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int perSender = 20_000;
        final int polled = 3_000;
        final long ringMessage = 5 * Long.BYTES;
        try (Messaging m = Messaging.create(job, 4096)) {
            final MemorySegment words = MemorySegment.ofArray(new long[(int)(ringMessage / Long.BYTES)]);
            if (me == 0) {
                final long[] next = new long[n];
                for (int i = 0; i < (n - 1) * perSender; i++) {
                    final MessageStatus status = m.recv(words, Rma.ANY_SOURCE, 5);
                    final int source = status.source();
                    assertEquals(source * 1_000_000L + next[source], words.get(ValueLayout.JAVA_LONG, 0),
                        "order of rank " + source);
                    assertEquals(next[source] % 2 == 0 ? Long.BYTES : ringMessage, status.length(),
                        "length of message " + next[source] + " of rank " + source);
                    next[source]++;
                }
                for (int source = 1; source < n; source++) {
                    assertEquals(perSender, next[source]);
                }
            } else {
                for (int i = 0; i < perSender; i++) {
                    words.set(ValueLayout.JAVA_LONG, 0, me * 1_000_000L + i);
                    m.send(words.asSlice(0, i % 2 == 0 ? Long.BYTES : ringMessage), 0, 5);
                }
            }
            if (n > 1 && me == 0) {
                for (int i = 0; i < polled; i++) {
                    final MessageRequest request = m.irecv(words, 1, 6);
                    while (!request.test()) {
                        Thread.onSpinWait();
                    }
                    assertEquals(i, words.get(ValueLayout.JAVA_LONG, 0));
                }
            } else if (me == 1) {
                for (int i = 0; i < polled; i++) {
                    words.set(ValueLayout.JAVA_LONG, 0, i);
                    m.send(words, 0, 6);
                }
            }
            m.barrier();
        }
    }

    /**
     * Messages sent before their receives are posted (eager, inline, rendezvous of one and many chunks)
     * wait as unexpected messages and are received in any order by exact (source, tag).
     */
    static void unexpectedMessages(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int[] sizes = {0, 5, 33, 300, 512, 513, 5000, 200_000, 4 * MIB};
        try (Messaging m = Messaging.create(job, 512)) {
            final List<MessageRequest> sends = new ArrayList<>();
            if (me != 0) {
                for (int tag = 0; tag < sizes.length; tag++) {
                    sends.add(m.isend(MemorySegment.ofArray(pattern(me, tag, sizes[tag])), 0, tag));
                }
            }
            m.barrier();
            if (me == 0) {
                for (int source = n - 1; source >= 1; source--) {
                    for (int tag = sizes.length - 1; tag >= 0; tag--) {
                        final byte[] data = new byte[sizes[tag] + 3];
                        final MessageStatus status = m.irecv(MemorySegment.ofArray(data), source, tag).await();
                        assertEquals(new MessageStatus(source, tag, sizes[tag]), status);
                        assertArrayEquals(pattern(source, tag, sizes[tag]), Arrays.copyOf(data, sizes[tag]));
                        assertArrayEquals(new byte[3], Arrays.copyOfRange(data, sizes[tag], sizes[tag] + 3),
                            "bytes past the message are untouched");
                    }
                }
            }
            MessageRequest.waitAll(sends.toArray(MessageRequest[]::new));
        }
    }

    /**
     * Long messages from native buffers between ranks of one node, which the receiver reads from the sender's
     * buffer ({@link CrossMemory}, where the system allows it): a send that completes only once its receiver has
     * read it (received into a heap buffer), a receive posted first into native memory at an odd address (the sender
     * writes the first half, the receiver reads the second), messages parked unread and then read straight into a blocking receive
     * or into a private buffer, a truncated one posted first and one arrived first (COUNT, the send still
     * completes), the order of a pair's long and short messages under a wildcard tag, and one never received,
     * whose send completes when the ranks close; byte-exact.
     */
    static void directRendezvous(final RmaJob job) {
        final int me = job.rank();
        final int[] sizes = {BOUNCE + 1, 100_000, MIB, 3 * MIB + 5};
        MessageRequest neverReceived = null;
        try (Arena arena = Arena.ofShared(); Messaging m = Messaging.create(job, BOUNCE)) {
            final MemorySegment native0 = arena.allocate(4 * MIB, 64);
            // A send is complete only once its receiver has read it (a staged one of two chunks at once: 64 KiB chunks).
            if (me == 0) {
                native0.asSlice(0, 100_000).copyFrom(MemorySegment.ofArray(pattern(0, 1, 100_000)));
                final MessageRequest sent = m.isend(native0.asSlice(0, 100_000), 1, 1);
                assertEquals(!CrossMemory.isAvailable(), sent.test(), "completed before the receiver made a call");
                job.barrier();
                sent.await();
            } else if (me == 1) {
                job.barrier();
                final byte[] into = new byte[100_003];
                assertEquals(new MessageStatus(0, 1, 100_000), m.recv(MemorySegment.ofArray(into), 0, 1));
                assertArrayEquals(pattern(0, 1, 100_000), Arrays.copyOf(into, 100_000));
                assertArrayEquals(new byte[3], Arrays.copyOfRange(into, 100_000, 100_003));
            }
            m.barrier();
            // Posted first, into native memory: more than two chunks, so the sender writes the first half.
            if (me == 0) {
                job.barrier();
                native0.asSlice(0, MIB + 7).copyFrom(MemorySegment.ofArray(pattern(7, 7, MIB + 7)));
                m.send(native0.asSlice(0, MIB + 7), 1, 7);
            } else if (me == 1) {
                final MemorySegment into = arena.allocate(MIB + 8L, 64);
                final MessageRequest posted = m.irecv(into.asSlice(1, MIB + 7), 0, 7);
                job.barrier();
                assertEquals(new MessageStatus(0, 7, MIB + 7), posted.await());
                assertArrayEquals(pattern(7, 7, MIB + 7), into.asSlice(1, MIB + 7).toArray(ValueLayout.JAVA_BYTE));
                assertEquals(0, into.get(ValueLayout.JAVA_BYTE, 0), "the byte before the receive is untouched");
            }
            m.barrier();
            // Arrived before their receives: read into a blocking receive's buffer or, before the receiver blocks,
            // into a private one; then a truncated one, posted first and arrived first.
            for (final int size : sizes) {
                if (me == 0) {
                    final MemorySegment data = native0.asSlice(0, size);
                    data.copyFrom(MemorySegment.ofArray(pattern(size, 2, size)));
                    final MessageRequest sent = m.isend(data, 1, 2);
                    final MessageRequest small = m.isend(MemorySegment.ofArray(pattern(size, 3, 40)), 1, 3);
                    job.barrier();
                    MessageRequest.waitAll(sent, small);
                } else if (me == 1) {
                    job.barrier();
                    final MemorySegment into = arena.allocate(size + 3L, 64);
                    assertEquals(new MessageStatus(0, 3, 40), m.recv(MemorySegment.ofArray(new byte[40]), 0, 3));
                    assertEquals(new MessageStatus(0, 2, size), m.recv(into, 0, 2));
                    assertArrayEquals(pattern(size, 2, size), into.asSlice(0, size).toArray(ValueLayout.JAVA_BYTE));
                    assertArrayEquals(new byte[3], into.asSlice(size, 3).toArray(ValueLayout.JAVA_BYTE));
                }
                m.barrier();
            }
            final byte[] small = new byte[1000];
            if (me == 0) {
                final MessageRequest posted = m.isend(native0.asSlice(0, 300_000), 1, 4);
                job.barrier();
                final MessageRequest arrived = m.isend(native0.asSlice(0, 300_000), 1, 5);
                job.barrier();
                MessageRequest.waitAll(posted, arrived);
            } else if (me == 1) {
                final MessageRequest posted = m.irecv(MemorySegment.ofArray(small), 0, 4);
                job.barrier();
                expect(ErrorClass.COUNT, posted::await);
                job.barrier();
                expect(ErrorClass.COUNT, () -> m.recv(MemorySegment.ofArray(small), 0, 5));
                assertArrayEquals(new byte[1000], small, "a truncated receive leaves its buffer unchanged");
            }
            m.barrier();
            // A pair's long and short messages keep their order under a wildcard tag.
            if (me == 0) {
                final List<MessageRequest> sends = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    final int size = i % 2 == 0 ? MIB / 2 + i : 16 + i;
                    final MemorySegment data = native0.asSlice((long)i * (MIB / 2 + 64), size);
                    data.copyFrom(MemorySegment.ofArray(pattern(i, 6, size)));
                    sends.add(m.isend(data, 1, 10 + i));
                }
                MessageRequest.waitAll(sends.toArray(MessageRequest[]::new));
            } else if (me == 1) {
                final MemorySegment into = arena.allocate(MIB, 64);
                for (int i = 0; i < 6; i++) {
                    final int size = i % 2 == 0 ? MIB / 2 + i : 16 + i;
                    assertEquals(new MessageStatus(0, 10 + i, size), m.recv(into, 0, Rma.ANY_TAG));
                    assertArrayEquals(pattern(i, 6, size), into.asSlice(0, size).toArray(ValueLayout.JAVA_BYTE));
                }
            }
            // Closing reads a message no receive took (the receiver drops it), so that its send completes.
            if (me == 0) {
                neverReceived = m.isend(native0.asSlice(0, 200_000), 1, 99);
            }
        }
        if (neverReceived != null) {
            assertTrue(neverReceived.test(), "a send that no receive took is complete once Messaging.close returned");
        }
    }

    /**
     * Blocking receives of messages that arrived before them (taken without a request): by tag out of arrival
     * order, a truncated one (COUNT, buffer unchanged, the message consumed), then the rest in the order of the
     * pair; a rendezvous among them goes through a request and keeps its place.
     */
    static void blockingReceivesOfArrivedMessages(final RmaJob job) {
        final int me = job.rank();
        final int[] sizes = {8, 16, 24, 5000, 32, 40};
        try (Messaging m = Messaging.create(job, 512)) {
            if (me == 1) {
                final List<MessageRequest> sends = new ArrayList<>();
                for (int i = 0; i < sizes.length; i++) {
                    // tags 0, 1, 0, 1, 0, 1: the pair's order decides among equal tags
                    sends.add(m.isend(MemorySegment.ofArray(pattern(me, i, sizes[i])), 0, i % 2));
                }
                m.barrier();
                MessageRequest.waitAll(sends.toArray(MessageRequest[]::new));
                m.barrier();
                return;
            }
            m.barrier();
            // Every short message has arrived once a receive has made progress: this one takes message 1 (tag 1).
            final byte[] first = new byte[64];
            assertEquals(new MessageStatus(1, 1, 16), m.recv(MemorySegment.ofArray(first), 1, 1));
            assertArrayEquals(pattern(1, 1, 16), Arrays.copyOf(first, 16));
            // Message 0 (tag 0, 8 bytes) does not fit 4 bytes: COUNT, buffer unchanged, message gone.
            final byte[] tiny = {7, 7, 7, 7};
            final RmaException e = assertThrows(RmaException.class, () -> m.recv(MemorySegment.ofArray(tiny), 1, 0));
            assertEquals(ErrorClass.COUNT, e.errorClass(), e.getMessage());
            assertArrayEquals(new byte[] {7, 7, 7, 7}, tiny);
            // The rest in the pair's order: 2 (tag 0), 3 (tag 1, rendezvous), 4, 5.
            for (int i = 2; i < sizes.length; i++) {
                final byte[] data = new byte[sizes[i] + 3];
                final MessageStatus status = m.recv(MemorySegment.ofArray(data), Rma.ANY_SOURCE, Rma.ANY_TAG);
                assertEquals(new MessageStatus(1, i % 2, sizes[i]), status, "message " + i);
                assertArrayEquals(pattern(1, i, sizes[i]), Arrays.copyOf(data, sizes[i]));
                assertArrayEquals(new byte[3], Arrays.copyOfRange(data, sizes[i], sizes[i] + 3));
            }
            m.barrier();
        }
    }

    /**
     * Blocking receives posted before their message arrives (the engine reuses one request for them): rank 0 asks
     * for each message with a send of its own, then receives, so the reply comes while the receive waits. Sizes,
     * tags and sources change from one receive to the next (each status is the message's), a receive that
     * truncates fails with COUNT and the next ones still complete, and a rendezvous message goes through the same
     * path.
     */
    static void blockingReceivesThatWait(final RmaJob job) {
        final int me = job.rank();
        final int[] sizes = {8, 8, 0, 40, 100, 8, 5000, 16, 16};
        try (Messaging m = Messaging.create(job, 512)) {
            final long[] ask = new long[1];
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < sizes.length; i++) {
                    final int tag = i % 3;
                    final int replier = 1 + i % (m.size() - 1);
                    if (me == 0) {
                        m.send(new long[] {i}, 0, 1, replier, 99);
                        final byte[] into = new byte[i == 4 ? 50 : sizes[i] + 2];
                        Arrays.fill(into, (byte)7);
                        final MemorySegment buffer = MemorySegment.ofArray(into);
                        if (i == 4) {
                            final RmaException e = assertThrows(RmaException.class, () -> m.recv(buffer, replier, tag));
                            assertEquals(ErrorClass.COUNT, e.errorClass(), e.getMessage());
                            final byte[] untouched = new byte[50];
                            Arrays.fill(untouched, (byte)7);
                            assertArrayEquals(untouched, into, "a truncated receive leaves its buffer unchanged");
                            continue;
                        }
                        final MessageStatus status = m.recv(buffer, i % 2 == 0 ? Rma.ANY_SOURCE : replier, tag);
                        assertEquals(new MessageStatus(replier, tag, sizes[i]), status,
                            "round " + round + " message " + i);
                        assertArrayEquals(pattern(replier, i, sizes[i]), Arrays.copyOf(into, sizes[i]));
                        assertArrayEquals(new byte[] {7, 7}, Arrays.copyOfRange(into, sizes[i], sizes[i] + 2));
                    } else if (me == replier) {
                        assertEquals(new MessageStatus(0, 99, 8), m.recv(ask, 0, 1, 0, 99));
                        assertEquals(i, ask[0]);
                        m.send(MemorySegment.ofArray(pattern(me, i, sizes[i])), 0, tag);
                    }
                }
            }
            m.barrier();
        }
    }

    /**
     * isend / irecv between every pair of three ranks, completed with waitAny (each index once, then
     * -1), test polling and waitAll.
     */
    static void nonblocking(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        try (Messaging m = Messaging.create(job, 1024)) {
            final List<MessageRequest> requests = new ArrayList<>();
            final List<byte[]> inboxes = new ArrayList<>();
            final List<Integer> senders = new ArrayList<>();
            for (int peer = 0; peer < n; peer++) {
                for (int tag = 1; tag <= 2; tag++) {
                    final byte[] inbox = new byte[tag * 3000];
                    inboxes.add(inbox);
                    senders.add(peer);
                    requests.add(m.irecv(MemorySegment.ofArray(inbox), peer, tag));
                }
            }
            final int receives = requests.size();
            for (int peer = n - 1; peer >= 0; peer--) {
                for (int tag = 2; tag >= 1; tag--) {
                    requests.add(m.isend(MemorySegment.ofArray(pattern(me, peer * 10 + tag, tag * 3000)), peer, tag));
                }
            }
            final MessageRequest[] all = requests.toArray(MessageRequest[]::new);
            final boolean[] seen = new boolean[all.length];
            for (int k = 0; k < all.length; k++) {
                final int index = MessageRequest.waitAny(all);
                assertTrue(index >= 0 && !seen[index], "waitAny returned " + index);
                seen[index] = true;
                assertTrue(all[index].test(), "a request reported by waitAny is complete");
            }
            assertEquals(-1, MessageRequest.waitAny(all));
            MessageRequest.waitAll(all);
            for (int i = 0; i < receives; i++) {
                final int tag = i % 2 + 1;
                assertArrayEquals(pattern(senders.get(i), me * 10 + tag, tag * 3000), inboxes.get(i));
                assertEquals(new MessageStatus(senders.get(i), tag, tag * 3000), all[i].await());
            }
            // test() polling until a message arrives.
            final int right = (me + 1) % n;
            final int left = (me + n - 1) % n;
            final long[] token = new long[1];
            final MessageRequest polled = m.irecv(MemorySegment.ofArray(token), left, 9);
            m.send(new long[] {me}, 0, 1, right, 9);
            while (!polled.test()) {
                Thread.onSpinWait();
            }
            assertTrue(polled.test());
            assertEquals(left, token[0]);
            MessageRequest.waitAll((MessageRequest)null);
            assertEquals(-1, MessageRequest.waitAny((MessageRequest)null));
        }
    }

    /**
     * Each rank sends 16 MiB to its right neighbour with a blocking send before it receives from its
     * left (with two ranks: to each other), with the default bounce size and with none: no deadlock.
     */
    static void exchangeLargeBlockingSendFirst(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int right = (me + 1) % n;
        final int left = (me + n - 1) % n;
        for (final long bounce : new long[] {Messaging.BOUNCE_BYTES_PER_PEER_DEFAULT, 0}) {
            try (Messaging m = Messaging.create(job, bounce)) {
                for (final int size : new int[] {16 * MIB, 100_000}) {
                    m.send(MemorySegment.ofArray(pattern(me, right, size)), right, 5);
                    final byte[] in = new byte[size];
                    assertEquals(new MessageStatus(left, 5, size), m.recv(MemorySegment.ofArray(in), left, 5));
                    assertArrayEquals(pattern(left, me, size), in);
                }
            }
        }
    }

    /**
     * An all-to-all of 64 KiB messages at every rank (8 ranks on the 2-core machine): nonblocking to
     * everyone including itself, then with blocking sends first in shifted order; eager and rendezvous.
     */
    static void allToAll(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int size = 64 * 1024;
        for (final long bounce : new long[] {Messaging.BOUNCE_BYTES_PER_PEER_DEFAULT, 4096}) {
            try (Messaging m = Messaging.create(job, bounce)) {
                for (int round = 0; round < 3; round++) {
                    final byte[][] in = new byte[n][size];
                    final MessageRequest[] requests = new MessageRequest[2 * n];
                    for (int peer = 0; peer < n; peer++) {
                        requests[peer] = m.irecv(MemorySegment.ofArray(in[peer]), peer, round);
                    }
                    for (int k = 0; k < n; k++) {
                        final int peer = (me + k) % n;
                        requests[n + peer] = m.isend(MemorySegment.ofArray(pattern(me * 64 + peer, round, size)), peer,
                            round);
                    }
                    MessageRequest.waitAll(requests);
                    for (int peer = 0; peer < n; peer++) {
                        assertArrayEquals(pattern(peer * 64 + me, round, size), in[peer], "from " + peer);
                    }
                }
                final byte[] in = new byte[size];
                for (int k = 1; k < n; k++) {
                    final int to = (me + k) % n;
                    final int from = (me + n - k) % n;
                    m.send(MemorySegment.ofArray(pattern(me * 64 + to, 7, size)), to, 7);
                    assertEquals(new MessageStatus(from, 7, size), m.recv(MemorySegment.ofArray(in), from, 7));
                    assertArrayEquals(pattern(from * 64 + me, 7, size), in, "shifted from " + from);
                }
            }
        }
    }

    /**
     * barrier, bcast from every root, reduce to every root and allreduce (SUM of longs, MAX of doubles,
     * a contiguous type), checked against a sequential computation.
     */
    static void collectives(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        try (Messaging m = Messaging.create(job, 512); Window board = job.allocateShared(8, 8)) {
            // barrier: a store before it is seen by every rank after it.
            for (int round = 1; round <= 5; round++) {
                board.segment().set(ValueLayout.JAVA_LONG, 0, round * 100L + me);
                m.barrier();
                for (int r = 0; r < n; r++) {
                    assertEquals(round * 100L + r, board.sharedQuery(r).segment().get(ValueLayout.JAVA_LONG, 0));
                }
                m.barrier();
            }
            // bcast from every root, eager and rendezvous sizes.
            for (int root = 0; root < n; root++) {
                for (final int size : new int[] {0, 8, 512, 513, 200_000}) {
                    final byte[] data = me == root ? pattern(root, size, size) : new byte[size];
                    m.bcast(MemorySegment.ofArray(data), root);
                    assertArrayEquals(pattern(root, size, size), data, "bcast of " + size + " from " + root);
                }
            }
            // reduce to every root.
            for (final int count : new int[] {0, 1, 7, 10_000}) {
                final long[] longs = new long[count];
                final double[] doubles = new double[count];
                for (int i = 0; i < count; i++) {
                    longs[i] = longInput(me, i);
                    doubles[i] = doubleInput(me, i);
                }
                final long[] longSum = new long[count];
                final double[] doubleMax = new double[count];
                for (int i = 0; i < count; i++) {
                    doubleMax[i] = Double.NEGATIVE_INFINITY;
                    for (int r = 0; r < n; r++) {
                        longSum[i] += longInput(r, i);
                        doubleMax[i] = Math.max(doubleMax[i], doubleInput(r, i));
                    }
                }
                for (int root = 0; root < n; root++) {
                    final long[] sum = new long[count];
                    Arrays.fill(sum, -1);
                    m.reduce(MemorySegment.ofArray(longs), MemorySegment.ofArray(sum), count, Datatype.LONG, Op.SUM,
                        root);
                    if (me == root) {
                        assertArrayEquals(longSum, sum, "SUM at root " + root);
                    } else {
                        assertTrue(Arrays.stream(sum).allMatch(v -> v == -1), "recv is not written at non-roots");
                    }
                    final double[] max = new double[count];
                    m.reduce(MemorySegment.ofArray(doubles), me == root ? MemorySegment.ofArray(max) : null, count,
                        Datatype.DOUBLE, Op.MAX, root);
                    if (me == root) {
                        assertArrayEquals(doubleMax, max, "MAX at root " + root);
                    }
                }
                final long[] sum = new long[count];
                m.allreduce(MemorySegment.ofArray(longs), MemorySegment.ofArray(sum), count, Datatype.LONG, Op.SUM);
                assertArrayEquals(longSum, sum, "allreduce SUM");
                final double[] max = new double[count];
                m.allreduce(MemorySegment.ofArray(doubles), MemorySegment.ofArray(max), count, Datatype.DOUBLE, Op.MAX);
                assertArrayEquals(doubleMax, max, "allreduce MAX");
                // In place: send and recv the same buffer.
                final long[] inPlace = longs.clone();
                m.allreduce(MemorySegment.ofArray(inPlace), MemorySegment.ofArray(inPlace), count, Datatype.LONG,
                    Op.SUM);
                assertArrayEquals(longSum, inPlace, "allreduce SUM in place");
            }
            // A contiguous type: 3 pairs of ints, MIN.
            final int[] pairs = {me, -me, 10 + me, 5 - me, me * me, 7};
            final int[] min = new int[6];
            m.allreduce(MemorySegment.ofArray(pairs), MemorySegment.ofArray(min), 3,
                Datatype.contiguous(2, Datatype.INT), Op.MIN);
            assertArrayEquals(new int[] {0, -(n - 1), 10, 5 - (n - 1), 0, 7}, min);
        }
    }

    /**
     * Misuse raises its error class and leaves the layer usable; truncation consumes the message and
     * leaves the buffer unchanged; after close every call raises OTHER.
     */
    static void errors(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int partner = (me + 1) % n;
        final int from = (me + n - 1) % n;
        expect(ErrorClass.SIZE, () -> Messaging.create(job, -1));
        expect(ErrorClass.SIZE, () -> Messaging.create(job, me == n - 1 ? (1L << 31) : 64));
        if (n > 1) {
            expect(ErrorClass.ARG, () -> Messaging.create(job, 1000 + me));
        }
        final Messaging m = Messaging.create(job, 256);
        final MemorySegment eight = MemorySegment.ofArray(new long[1]);
        expect(ErrorClass.TAG, () -> m.send(eight, partner, -1));
        expect(ErrorClass.TAG, () -> m.isend(eight, partner, Messaging.TAG_UB + 1));
        expect(ErrorClass.TAG, () -> m.irecv(eight, partner, -5));
        expect(ErrorClass.TAG, () -> m.recv(eight, partner, Messaging.TAG_UB + 1));
        expect(ErrorClass.RANK, () -> m.send(eight, n, 1));
        expect(ErrorClass.RANK, () -> m.isend(eight, -3, 1));
        expect(ErrorClass.RANK, () -> m.isend(eight, Rma.ANY_SOURCE, 1));
        expect(ErrorClass.RANK, () -> m.recv(eight, n, 1));
        expect(ErrorClass.RANK, () -> m.irecv(eight, -7, 1));
        expect(ErrorClass.RANK, () -> m.bcast(eight, n));
        expect(ErrorClass.RANK, () -> m.reduce(eight, eight, 1, Datatype.LONG, Op.SUM, Rma.PROC_NULL));
        expect(ErrorClass.TYPE, () -> m.allreduce(eight, eight, 1, null, Op.SUM));
        expect(ErrorClass.TYPE, () -> m.allreduce(eight, eight, 1, Datatype.vector(2, 1, 2, Datatype.INT), Op.SUM));
        expect(ErrorClass.OP, () -> m.allreduce(eight, eight, 1, Datatype.LONG, Op.REPLACE));
        expect(ErrorClass.OP, () -> m.allreduce(eight, eight, 1, Datatype.DOUBLE, Op.BAND));
        expect(ErrorClass.COUNT, () -> m.allreduce(eight, eight, -1, Datatype.LONG, Op.SUM));
        expect(ErrorClass.COUNT, () -> m.allreduce(eight, eight, 2, Datatype.LONG, Op.SUM));
        expect(ErrorClass.COUNT, () -> m.send(new long[2], 1, 2, partner, 1));
        pingRing(m, 1);

        // PROC_NULL: completes at once.
        m.send(eight, Rma.PROC_NULL, 3);
        assertEquals(new MessageStatus(Rma.PROC_NULL, Rma.ANY_TAG, 0), m.recv(eight, Rma.PROC_NULL, 3));

        // Truncation, eager and rendezvous (one and several chunks), posted first or unexpected.
        int round = 2;
        for (final int size : new int[] {100, 300, 200_000}) {
            for (final boolean postedFirst : new boolean[] {true, false}) {
                final byte[] small = new byte[50];
                Arrays.fill(small, (byte)7);
                MessageRequest receive = null;
                if (postedFirst) {
                    receive = m.irecv(MemorySegment.ofArray(small), from, 20);
                }
                m.barrier();
                final MessageRequest sent = m.isend(MemorySegment.ofArray(pattern(me, size, size)), partner, 20);
                if (!postedFirst) {
                    m.barrier();
                    receive = m.irecv(MemorySegment.ofArray(small), from, 20);
                }
                final RmaException e = assertThrows(RmaException.class, receive::await);
                assertEquals(ErrorClass.COUNT, e.errorClass(), e.getMessage());
                assertTrue(e.getMessage().contains(size + "-byte message") && e.getMessage().contains("50 bytes"),
                    e.getMessage());
                final byte[] untouched = new byte[50];
                Arrays.fill(untouched, (byte)7);
                assertArrayEquals(untouched, small, "a truncated receive leaves its buffer unchanged");
                sent.await();
                if (!postedFirst) {
                    m.barrier();
                }
                pingRing(m, round++);
            }
        }
        // A failed receive is reported by test, waitAny and waitAll too.
        for (int attempt = 0; attempt < 3; attempt++) {
            final int way = attempt;
            final MessageRequest receive = m.irecv(MemorySegment.ofArray(new byte[4]), from, 21);
            m.send(MemorySegment.ofArray(new byte[8]), partner, 21);
            final MessageRequest[] both = {null, receive};
            final RmaException e = assertThrows(RmaException.class, () -> {
                switch (way) {
                    case 0 -> {
                        while (!receive.test()) {
                            Thread.onSpinWait();
                        }
                    }
                    case 1 -> MessageRequest.waitAny(both);
                    default -> MessageRequest.waitAll(both);
                }
            });
            assertEquals(ErrorClass.COUNT, e.errorClass());
            assertEquals(-1, MessageRequest.waitAny(both));
            pingRing(m, round++);
        }
        // Arrays.
        final double[] doubles = {1.5, -2.5, 3.25};
        m.send(doubles, 1, 2, partner, 22);
        final double[] into = new double[4];
        assertEquals(new MessageStatus(from, 22, 16), m.recv(into, 1, 3, from, 22));
        assertArrayEquals(new double[] {0, -2.5, 3.25, 0}, into);

        // Close: a pending receive fails, every call raises OTHER, close again does nothing.
        final MessageRequest orphan = m.irecv(eight, Rma.ANY_SOURCE, 99);
        m.close();
        assertEquals(ErrorClass.OTHER, assertThrows(RmaException.class, orphan::await).errorClass());
        expect(ErrorClass.OTHER, () -> m.send(eight, partner, 1));
        expect(ErrorClass.OTHER, () -> m.recv(eight, partner, 1));
        expect(ErrorClass.OTHER, () -> m.irecv(eight, Rma.ANY_SOURCE, Rma.ANY_TAG));
        expect(ErrorClass.OTHER, m::barrier);
        expect(ErrorClass.OTHER, () -> m.bcast(eight, 0));
        expect(ErrorClass.OTHER, () -> m.allreduce(eight, eight, 1, Datatype.LONG, Op.SUM));
        m.close();
        job.barrier();
    }

    /**
     * A rank blocked in recv for 1.5 s sleeps: its CPU time while waiting stays far below the time.
     */
    static void waitingSleeps(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        try (Messaging m = Messaging.create(job)) {
            m.barrier();
            final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            if (me == 0) {
                sleepMillis(1500);
                for (int peer = 1; peer < n; peer++) {
                    m.send(new long[] {42}, 0, 1, peer, 1);
                }
            } else {
                final long cpuBefore = threads.getCurrentThreadCpuTime();
                final long[] value = new long[1];
                m.recv(value, 0, 1, 0, 1);
                final long cpuNs = threads.getCurrentThreadCpuTime() - cpuBefore;
                assertEquals(42, value[0]);
                System.out.println("rank " + me + " waited in recv with " + cpuNs / 1_000_000 + " ms of CPU");
                assertTrue(cpuNs < 500_000_000L,
                    "a rank waiting 1.5 s in recv used " + cpuNs / 1_000_000 + " ms of CPU: it must sleep, not spin");
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    /** Every rank sends a word to its right neighbour and receives one from its left. */
    private static void pingRing(final Messaging m, final int round) {
        final int n = m.size();
        final int me = m.rank();
        final long[] in = new long[1];
        final MessageRequest receive = m.irecv(MemorySegment.ofArray(in), (me + n - 1) % n, 500 + round);
        m.send(new long[] {me * 1000L + round}, 0, 1, (me + 1) % n, 500 + round);
        assertEquals(new MessageStatus((me + n - 1) % n, 500 + round, 8), receive.await());
        assertEquals((me + n - 1) % n * 1000L + round, in[0]);
    }

    /**
     * Receives with (source, tag) and checks that the message is the sender's oldest one not yet taken
     * that the pattern matches (non-overtaking).
     *
     * @return the source.
     */
    private static int receiveNextInOrder(final Messaging m, final MemorySegment buffer, final int source,
        final int tag, final boolean[][] taken, final int[] sizes) {
        final MessageStatus status = m.recv(buffer, source, tag);
        final int from = status.source();
        int expected = 0;
        while (taken[from][expected] || tag != Rma.ANY_TAG && expected % 3 != tag) {
            expected++;
        }
        checkSequenced(buffer, status, from, expected, sizes);
        taken[from][expected] = true;
        return from;
    }

    /** A message of {@code size} >= 8 bytes whose first long says who sent it and its sequence number. */
    private static MemorySegment sequenced(final int source, final int sequence, final int size) {
        final MemorySegment payload = MemorySegment.ofArray(pattern(source, sequence, size));
        payload.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, (long)source << 32 | sequence);
        return payload;
    }

    private static void checkSequenced(final MemorySegment buffer, final MessageStatus status, final int source,
        final int sequence, final int[] sizes) {
        final int size = sizes[sequence % sizes.length];
        assertEquals(new MessageStatus(source, sequence % 3, size), status, "message " + sequence + " of " + source);
        final long header = buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        assertEquals((long)source << 32 | sequence, header, "message " + sequence + " of rank " + source
            + " (got message " + (int)header + " of rank " + (header >>> 32) + ")");
        final byte[] got = buffer.asSlice(8, size - 8).toArray(ValueLayout.JAVA_BYTE);
        assertArrayEquals(Arrays.copyOfRange(pattern(source, sequence, size), 8, size), got);
    }

    private static long longInput(final int rank, final int index) {
        return rank * 1_000_003L - index * 7L + (index % 5 == 0 ? Long.MAX_VALUE / 16 : -5000);
    }

    private static double doubleInput(final int rank, final int index) {
        return Math.sin(rank * 31.0 + index) * 1e6 - index;
    }

    static byte[] pattern(final int a, final int b, final int size) {
        final byte[] data = new byte[size];
        int x = a * 0x9E37_79B9 ^ b * 0x85EB_CA6B ^ size;
        for (int i = 0; i < size; i++) {
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            data[i] = (byte)x;
        }
        return data;
    }

    private static void sleepMillis(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void expect(final ErrorClass errorClass, final ThrowingRunnable call) {
        final RmaException e = assertThrows(RmaException.class, call::run);
        assertEquals(errorClass, e.errorClass(), e.getMessage());
    }

    /** A call expected to throw. */
    interface ThrowingRunnable {
        void run() throws Throwable;
    }
}
