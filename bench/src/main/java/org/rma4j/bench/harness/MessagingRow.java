package org.rma4j.bench.harness;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.rma4j.RmaJob;

/**
 * The rma4j send-recv row over the two-sided layer {@code org.rma4j.messaging.Messaging}
 * ({@code Messaging.create(job)}, {@code send}, {@code recv}, {@code close}), which is written in
 * parallel with this harness. The harness binds to it at run time through constant method handles, so
 * the bench module builds whatever state that class is in: where the runtime on the class path has it,
 * the row runs; where it does not, the report says so. Once the API has settled, these calls can
 * become direct ones.
 */
final class MessagingRow {
    static final String CLASS_NAME = "org.rma4j.messaging.Messaging";
    /** Tag of the ping-pong messages. */
    static final int TAG = 7;

    private MessagingRow() {
    }

    /**
     * @return whether the runtime on the class path has the two-sided layer, with the calls the row uses.
     */
    static boolean available() {
        return Handles.FAILURE == null;
    }

    static String note() {
        return available()
            ? "rma4j send-recv: " + CLASS_NAME + " (blocking send + recv) measured as found on the class path."
            : "rma4j send-recv: not available (" + Handles.FAILURE + "); the Open MPI and MPICH send-recv rows "
                + "are shown alone.";
    }

    /**
     * send-recv: the client sends the payload and receives the echo; the server receives into its buffer
     * and sends those bytes back.
     */
    static void run(final RankContext context) throws Throwable {
        if (!available()) {
            throw new IllegalStateException("rma4j send-recv is not available: " + Handles.FAILURE);
        }
        final Object messaging = Handles.CREATE.invoke(context.job);
        try (Arena arena = Arena.ofShared()) {
            final MemorySegment buffer = arena.allocate(context.maxSize(), 64);
            buffer.fill((byte)1);
            final MemorySegment[] slices = new MemorySegment[context.sizes.length];
            for (int s = 0; s < slices.length; s++) {
                slices[s] = buffer.asSlice(0, context.sizes[s]);
            }
            final int partner = context.partner;
            context.pingPong("send-recv", (s, seq) -> {
                send(messaging, slices[s], partner);
                recv(messaging, slices[s], partner);
            }, (s, seq) -> {
                recv(messaging, slices[s], partner);
                send(messaging, slices[s], partner);
            });
        } finally {
            Handles.CLOSE.invoke(messaging);
        }
    }

    private static void send(final Object messaging, final MemorySegment buffer, final int dest) throws Exception {
        try {
            Handles.SEND.invokeExact(messaging, buffer, dest, TAG);
        } catch (final Exception | Error e) {
            throw e;
        } catch (final Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static void recv(final Object messaging, final MemorySegment buffer, final int source) throws Exception {
        try {
            final Object status = Handles.RECV.invokeExact(messaging, buffer, source, TAG);
        } catch (final Exception | Error e) {
            throw e;
        } catch (final Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The method handles, looked up once; constants to the JIT. */
    private static final class Handles {
        static final MethodHandle CREATE;
        static final MethodHandle SEND;
        static final MethodHandle RECV;
        static final MethodHandle CLOSE;
        static final String FAILURE;

        static {
            MethodHandle create = null;
            MethodHandle send = null;
            MethodHandle recv = null;
            MethodHandle close = null;
            String failure = null;
            try {
                final Class<?> type = Class.forName(CLASS_NAME, true, MessagingRow.class.getClassLoader());
                final MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                create = lookup.findStatic(type, "create", MethodType.methodType(type, RmaJob.class));
                send = lookup
                    .findVirtual(type, "send",
                        MethodType.methodType(void.class, MemorySegment.class, int.class, int.class))
                    .asType(MethodType.methodType(void.class, Object.class, MemorySegment.class, int.class, int.class));
                final Class<?> status = type.getMethod("recv", MemorySegment.class, int.class, int.class)
                    .getReturnType();
                recv = lookup
                    .findVirtual(type, "recv", MethodType.methodType(status, MemorySegment.class, int.class, int.class))
                    .asType(
                        MethodType.methodType(Object.class, Object.class, MemorySegment.class, int.class, int.class));
                close = lookup.findVirtual(type, "close", MethodType.methodType(void.class));
            } catch (final ReflectiveOperationException | LinkageError e) {
                failure = CLASS_NAME + " is not usable: " + e;
            }
            CREATE = create;
            SEND = send;
            RECV = recv;
            CLOSE = close;
            FAILURE = failure;
        }
    }
}
