package dev.modelgateway.e2e;

import com.anthropic.client.AnthropicClient;
import com.openai.client.OpenAIClient;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.function.Function;

/**
 * One gateway with the defaults ({@link GatewayHarness#start()}) for all the tests of a class, for
 * {@code @ExtendWith(PerClassGateway.class)}: before the class's own {@code @BeforeAll} methods it starts the
 * harness and sets the class's own static fields of these types, and after its {@code @AfterAll} methods
 * it closes the harness (and with it the SDK clients) and clears those fields.
 * <ul>
 *   <li>{@link GatewayHarness}: the harness;</li>
 *   <li>{@link OpenAIClient}: {@link GatewayHarness#openai()}, the master key, the SDK's own retries off;</li>
 *   <li>{@link AnthropicClient}: {@link GatewayHarness#anthropic()}, the same as a bearer token;</li>
 *   <li>{@link AdminApi}: the admin API with the master key.</li>
 * </ul>
 * A class that needs another set-up (a builder setting, a client with retries) starts its own harness or
 * client in {@code @BeforeAll}.
 */
public final class PerClassGateway implements BeforeAllCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(PerClassGateway.class);

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        GatewayHarness h = GatewayHarness.start();
        context.getStore(NS).put(GatewayHarness.class, h);
        Class<?> testClass = context.getRequiredTestClass();
        fill(testClass, GatewayHarness.class, h, x -> x);
        fill(testClass, OpenAIClient.class, h, GatewayHarness::openai);
        fill(testClass, AnthropicClient.class, h, GatewayHarness::anthropic);
        fill(testClass, AdminApi.class, h, AdminApi::new);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        GatewayHarness h = context.getStore(NS).remove(GatewayHarness.class, GatewayHarness.class);
        if (h == null) return;
        Class<?> testClass = context.getRequiredTestClass();
        for (Class<?> type : new Class<?>[]{GatewayHarness.class, OpenAIClient.class, AnthropicClient.class, AdminApi.class}) {
            fill(testClass, type, h, x -> null);
        }
        h.close();
    }

    private static <T> void fill(Class<?> testClass, Class<T> type, GatewayHarness h, Function<GatewayHarness, T> value)
            throws IllegalAccessException {
        for (Field f : testClass.getDeclaredFields()) {
            if (f.getType() != type || !Modifier.isStatic(f.getModifiers()) || Modifier.isFinal(f.getModifiers())) continue;
            f.setAccessible(true);
            f.set(null, value.apply(h));
        }
    }
}
