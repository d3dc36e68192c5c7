package dev.modelgateway.e2e.console;

import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A browser's part in the console sign-in, over HTTP: a cookie jar, redirects followed one at a time so that a test
 * can tamper with the authorization request or the provider's answer on the way, and the test provider's login form
 * filled in.
 */
final class SignInFlow {
    private static final Pattern FORM_ACTION = Pattern.compile("action=\"([^\"]+)\"");

    final CookieManager cookies = new CookieManager();
    final HttpClient http = HttpClient.newBuilder().cookieHandler(cookies).followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String gateway;
    private final String provider;

    SignInFlow(String gateway) {
        this(gateway, "test");
    }

    SignInFlow(String gateway, String provider) {
        this.gateway = gateway;
        this.provider = provider;
    }

    /** What the sign-in came to: the gateway's answer to the callback, and the callback URL it was given. */
    record Outcome(HttpResponse<String> answer, String callbackUrl, String bindingCookie) {
        boolean signedIn() {
            return answer.statusCode() == 302 && "/console/".equals(answer.headers().firstValue("location").orElse(null));
        }
    }

    Outcome signIn(String user) throws Exception {
        return signIn(user, UnaryOperator.identity(), UnaryOperator.identity());
    }

    /**
     * Signs {@code user} in; {@code toProvider} may change the authorization request's URL, {@code toGateway} the
     * provider's redirect back to the gateway.
     */
    Outcome signIn(String user, UnaryOperator<String> toProvider, UnaryOperator<String> toGateway) throws Exception {
        HttpResponse<String> start = get(gateway + "/auth/oidc/" + provider + "/login");
        if (start.statusCode() != 302) throw new IllegalStateException("login answered " + start.statusCode() + ": " + start.body());
        String binding = cookie("mg_signin");
        String url = toProvider.apply(location(start, gateway + "/auth/oidc/" + provider + "/login"));
        for (int hops = 0; hops < 10; hops++) {
            if (url.startsWith(gateway + "/auth/oidc/")) {
                String callback = toGateway.apply(url);
                return new Outcome(get(callback), callback, binding);
            }
            HttpResponse<String> r = get(url);
            if (r.statusCode() / 100 == 3) {
                url = location(r, url);
            } else if (r.statusCode() == 200 && r.body().contains("id=\"username\"")) {
                Matcher m = FORM_ACTION.matcher(r.body());
                if (!m.find()) throw new IllegalStateException("no login form: " + r.body());
                HttpResponse<String> posted = post(URI.create(url).resolve(m.group(1)).toString(),
                        Map.of("login", user, "password", user + "-password"));
                if (posted.statusCode() / 100 != 3) throw new IllegalStateException("login form answered " + posted.statusCode() + ": " + posted.body());
                url = location(posted, url);
            } else {
                throw new IllegalStateException("the provider answered " + r.statusCode() + " at " + url + ": " + r.body());
            }
        }
        throw new IllegalStateException("too many redirects");
    }

    String cookie(String name) {
        return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals(name)).map(HttpCookie::getValue)
                .findFirst().orElse(null);
    }

    HttpResponse<String> get(String url, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).GET();
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> send(String method, String url, String json, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) b.header("content-type", "application/json");
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String url, Map<String, String> form) throws Exception {
        String body = String.join("&", form.entrySet().stream().map(e -> enc(e.getKey()) + "=" + enc(e.getValue())).toList());
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                .header("content-type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String location(HttpResponse<?> r, String from) {
        return URI.create(from).resolve(r.headers().firstValue("location").orElseThrow()).toString();
    }

    /** A URL's query parameters. */
    static Map<String, String> query(String url) {
        Map<String, String> q = new LinkedHashMap<>();
        String raw = URI.create(url).getRawQuery();
        if (raw == null) return q;
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            q.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                    eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return q;
    }

    /** The URL with one query parameter set to {@code value} (null: removed). */
    static String withParam(String url, String name, String value) {
        Map<String, String> q = query(url);
        if (value == null) q.remove(name);
        else q.put(name, value);
        String base = url.contains("?") ? url.substring(0, url.indexOf('?')) : url;
        return base + "?" + String.join("&", q.entrySet().stream().map(e -> enc(e.getKey()) + "=" + enc(e.getValue())).toList());
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
