package org.rma4j.internal.mpi;

import java.lang.foreign.MemorySegment;
import org.rma4j.shm.Words;

/**
 * A request received by the link ({@link AmLayout}), as its handler sees it, and the handler's way to reply.
 * Valid only while the handler runs (a request the handler keeps waiting is copied by the link).
 */
public final class ActiveMessage {
    private final MpiLink link;
    private final int source;
    private final NativeBuffers.Buffer buffer;
    private final MemorySegment message;
    private NativeBuffers.Buffer reply;
    private boolean replied;

    ActiveMessage(final MpiLink link, final int source, final NativeBuffers.Buffer buffer, final long length) {
        this.link = link;
        this.source = source;
        this.buffer = buffer;
        this.message = buffer.segment().asSlice(0, length);
    }

    NativeBuffers.Buffer buffer() {
        return buffer;
    }

    /** @return the sender's rank in the world. */
    public int source() {
        return source;
    }

    public int kind() {
        return Words.getInt(message, AmLayout.KIND_OFFSET);
    }

    public long window() {
        return Words.getLong(message, AmLayout.WINDOW_OFFSET);
    }

    /** @return the target rank, of the window. */
    public int target() {
        return Words.getInt(message, AmLayout.TARGET_OFFSET);
    }

    /** @return the origin rank, of the window. */
    public int origin() {
        return Words.getInt(message, AmLayout.ORIGIN_OFFSET);
    }

    public long offset() {
        return Words.getLong(message, AmLayout.OFFSET_OFFSET);
    }

    public long arg0() {
        return Words.getLong(message, AmLayout.ARG0_OFFSET);
    }

    public long arg1() {
        return Words.getLong(message, AmLayout.ARG1_OFFSET);
    }

    public long arg2() {
        return Words.getLong(message, AmLayout.ARG2_OFFSET);
    }

    /** @return the payload (read-only for the handler). */
    public MemorySegment payload() {
        return message.asSlice(AmLayout.HEADER_LENGTH);
    }

    /** @return whether the origin waits for a reply. */
    public boolean expectsReply() {
        return Words.getInt(message, AmLayout.REPLY_TAG_OFFSET) != 0;
    }

    /**
     * @return room for {@code bytes} bytes of reply payload, sent by the next {@link #reply}.
     */
    public MemorySegment replyPayload(final long bytes) {
        if (reply != null) {
            link.buffers().release(reply);
        }
        reply = link.buffers().acquire(AmLayout.REPLY_HEADER_LENGTH + bytes);
        Words.putInt(reply.segment(), AmLayout.REPLY_FLAGS_OFFSET, 0);
        Words.putLong(reply.segment(), AmLayout.REPLY_PAYLOAD_LENGTH_OFFSET, bytes);
        return reply.segment().asSlice(AmLayout.REPLY_HEADER_LENGTH, bytes);
    }

    /**
     * Sends the reply (once; nothing if the origin asked for none), with the payload of {@link #replyPayload}.
     *
     * @param status 0, or the error class code of what went wrong.
     */
    public void reply(final int status) {
        if (replied) {
            throw new IllegalStateException("a request is replied to once");
        }
        replied = true;
        if (!expectsReply()) {
            if (reply != null) {
                link.buffers().release(reply);
            }
            return;
        }
        if (reply == null) {
            replyPayload(0);
        }
        Words.putInt(reply.segment(), AmLayout.REPLY_STATUS_OFFSET, status);
        link.sendReply(source, Words.getInt(message, AmLayout.REPLY_TAG_OFFSET), reply);
        reply = null;
    }

    /**
     * Replies with an error: {@code status} (an error class code) and its message (cut to
     * {@link AmLayout#MAX_ERROR_TEXT} bytes); the origin's call throws {@link RemoteFailureException}. Nothing
     * if the origin asked for no reply.
     */
    public void fail(final int status, final String text) {
        final byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        final int length = Math.min(bytes.length, AmLayout.MAX_ERROR_TEXT);
        MemorySegment.copy(bytes, 0, replyPayload(length), java.lang.foreign.ValueLayout.JAVA_BYTE, 0, length);
        Words.putInt(reply.segment(), AmLayout.REPLY_FLAGS_OFFSET, AmLayout.REPLY_FLAG_ERROR);
        reply(status);
    }

    /** Gives back what the request still holds. */
    void release() {
        if (reply != null) {
            link.buffers().release(reply);
            reply = null;
        }
        link.buffers().release(buffer);
    }
}
