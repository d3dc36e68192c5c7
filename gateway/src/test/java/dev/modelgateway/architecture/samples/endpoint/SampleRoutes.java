package dev.modelgateway.architecture.samples.endpoint;

import io.vertx.ext.web.Router;

/** An endpoint that mounts its own route instead of leaving it to GatewayRouter, for {@code LayoutRulesFailTest}. */
public class SampleRoutes {
    public static void mount(Router router) {
        router.get("/api/v1/sample").handler(ctx -> ctx.end());
    }
}
