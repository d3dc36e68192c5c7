package dev.modelgateway.endpoint;

import dev.modelgateway.http.BodyWork;
import dev.modelgateway.http.MultipartBody;
import dev.modelgateway.wire.MultipartForm;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.function.Consumer;

/**
 * A request's multipart form for its handler, as {@link JsonBody} is for JSON: a large form (a 25 MB audio file)
 * is split into its parts on a worker thread ({@link BodyWork}); the parts sent on are encoded there too, by
 * {@code call/OperationCall}. Done on the
 * event loop, the copies of a 25 MB transcription upload held it for 116–465 ms of CPU (LargeBodyEventLoopTest).
 * The handlers run on the event loop; their refusals reach the router's failure handler either way.
 */
public final class FormBody {
    private FormBody() {
    }

    /** The parts, or null when the body is not multipart/form-data with a boundary. */
    public static void read(RoutingContext ctx, Consumer<List<MultipartForm.Part>> handler) {
        Buffer body = MultipartBody.of(ctx);
        String type = ctx.request().getHeader("content-type");
        BodyReady.then(ctx, BodyWork.run(ctx.vertx(), body == null ? 0 : body.length(), () -> MultipartForm.parse(type, body)), handler);
    }
}
