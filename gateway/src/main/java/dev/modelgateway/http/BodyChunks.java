package dev.modelgateway.http;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.ext.web.RoutingContext;

import java.util.function.Consumer;

/**
 * Reads a request's body as the chunks that arrived, and keeps a large one that way, joined without a copy.
 * Vert.x's BodyHandler appends every chunk to one array that doubles as it fills: for a 32 MB body, arrays of 1, 2, 4 … 32 MB allocated, zeroed and
 * copied on the event loop, the last one in a single step; on a loaded machine, with the pages to fault in,
 * that step alone held the loop for 50–130 ms (docs/security.md). Vert.x hands each chunk over as its own heap
 * buffer, safe to keep, so a large body here is a composite of them, and whoever walks it whole (the JSON parse,
 * {@link dev.modelgateway.json.Json#parseObject}) does so on a worker ({@link BodyWork}). A small body is
 * copied into one array once it has all arrived.
 */
public final class BodyChunks {
    private BodyChunks() {
    }

    /**
     * Reads the body, up to {@code limit} bytes, and gives it to {@code whole} once the request has ended.
     * Over the limit, {@code tooLarge} answers and the rest of the upload is read and dropped.
     */
    public static void collect(RoutingContext ctx, long limit, Runnable tooLarge, Consumer<Buffer> whole) {
        // no component limit: past it, Netty would consolidate the parts into one array, the copy avoided here
        CompositeByteBuf parts = Unpooled.compositeBuffer(Integer.MAX_VALUE);
        boolean[] refused = {false};
        ctx.request().handler(chunk -> {
            if (refused[0]) return;
            if (parts.readableBytes() + (long) chunk.length() > limit) {
                refused[0] = true;
                tooLarge.run();
                return;
            }
            parts.addComponent(true, ((BufferInternal) chunk).unwrap());
        });
        // a malformed framing or the caller leaving: the router's failure handler answers (or not) and logs
        ctx.request().exceptionHandler(t -> {
            if (!ctx.failed() && !ctx.response().ended()) ctx.fail(t);
        });
        ctx.request().endHandler(v -> {
            if (refused[0] || ctx.failed() || ctx.response().ended()) return;
            // a small body is copied into one array of its size, as BodyHandler did (a cheap copy, and the
            // parsers' no-copy path); only a large one stays in its chunks
            whole.accept(parts.readableBytes() <= BodyWork.INLINE_BYTES
                    ? Buffer.buffer(ByteBufUtil.getBytes(parts)) : BufferInternal.buffer(parts));
        });
        ctx.request().resume();
    }
}
