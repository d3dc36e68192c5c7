package dev.modelgateway.endpoint.embeddings;

import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.OperationCall;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.OperationTimeouts;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.endpoint.JsonBody;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.wire.Operations;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /api/v1/embeddings} in vendor B's shape, for every embedding model of the catalogue: the request is
 * read and checked here, and sent by the operation of the deployment chosen ({@link Operations#embeddings}: the
 * vendor's own, or Bedrock's and Vertex's embedding models).
 */
public final class EmbeddingsEndpoint {
    private final CallServices platform;

    public EmbeddingsEndpoint(CallServices platform) {
        this.platform = platform;
    }

    public void handle(RoutingContext ctx) {
        // reading checks every input item: beside the event loop when the body is large
        JsonBody.read(ctx, EmbeddingsRequest::parse, req -> handle(ctx, req));
    }

    private void handle(RoutingContext ctx, EmbeddingsRequest req) {
        ModelEntry model = platform.catalogue().resolve(req.model());
        Exchange.of(ctx).model(model.id());
        if (model.kind() != ModelKind.EMBEDDING) {
            throw GatewayException.invalid("model", "Model '" + model.id() + "' is not an embedding model; GET /api/v1/models "
                    + "lists them (e.g. platform/text-embedding-3-small).");
        }
        if (req.texts() == null && model.vendor() != Vendor.OPENAI) {
            throw GatewayException.invalid("input", "Token-id input is accepted only by vendor B models; send text to " + model.id() + ".");
        }
        OperationCall.run(platform, Exchange.of(ctx), ctx.body().length(), model,
                d -> Operations.embeddings(d.endpoint(), model, req.body(), req.texts(), req.dimensions(), req.base64()),
                OperationTimeouts::embeddings);
    }
}
