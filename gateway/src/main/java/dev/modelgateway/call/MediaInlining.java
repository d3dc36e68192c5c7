package dev.modelgateway.call;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.MediaKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.config.MediaPolicy;
import dev.modelgateway.upstream.MediaFetcher;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Gives a vendor that cannot fetch URLs the bytes instead: downloads each URL medium it needs (a few at a time,
 * within the per-request limits of {@link MediaPolicy}; each URL once per call, so a retry or a fallback to another such vendor does not download again) and
 * inlines them. A URL that cannot be fetched is the caller's 400, naming the field where it was given.
 */
final class MediaInlining {
    private MediaInlining() {
    }

    /** The media types vendors take inline, per kind; any other downloaded type is refused. */
    static final Map<MediaKind, List<String>> ACCEPTED = Map.of(
            MediaKind.IMAGE, List.of("image/png", "image/jpeg", "image/gif", "image/webp", "image/heic", "image/heif"),
            MediaKind.DOCUMENT, List.of("application/pdf", "text/plain", "text/markdown", "text/csv"),
            MediaKind.AUDIO, List.of("audio/wav", "audio/x-wav", "audio/mpeg", "audio/mp3", "audio/aac", "audio/ogg",
                    "audio/flac", "audio/aiff", "audio/webm", "audio/mp4"));

    static Future<CanonicalRequest> inline(Call call, CanonicalRequest request, List<ContentBlock.Media> needed,
                                           MediaFetcher fetcher) {
        MediaPolicy policy = fetcher.policy();
        Map<String, ContentBlock.Media> fetched = call.fetchedMedia();
        Map<String, MediaKind> missing = new HashMap<>();
        Set<String> all = new LinkedHashSet<>();
        List<String> order = new ArrayList<>();
        for (ContentBlock.Media m : needed) {
            if (all.add(m.url()) && all.size() > policy.maxItems()) {
                // one small request must not make the gateway download (and hold) any number of media
                String field = pathOf(call.body(), m.url(), "");
                return Future.failedFuture(GatewayException.invalid(field, "Too many media URLs: '" + field
                        + "' is one more than the " + policy.maxItems() + " the gateway downloads for one request"
                        + " (media.max_items)."));
            }
            if (!fetched.containsKey(m.url()) && missing.putIfAbsent(m.url(), m.kind()) == null) order.add(m.url());
        }
        long already = 0;
        for (ContentBlock.Media m : fetched.values()) already += m.data() == null ? 0 : m.data().length() / 4 * 3;
        return new Window(call, fetcher, policy, order, missing, needed, already).run()
                .map(v -> request.withInlinedMedia(fetched));
    }

    /**
     * Downloads the missing URLs at most {@link MediaPolicy#maxConcurrent()} at a time, within the request's
     * total byte budget; after the first failure no new download starts, and the failure reported is the first
     * in document order.
     */
    private static final class Window {
        private final Call call;
        private final MediaFetcher fetcher;
        private final MediaPolicy policy;
        private final List<String> order;
        private final Map<String, MediaKind> kinds;
        private final List<ContentBlock.Media> needed;
        private final Throwable[] failures;
        private final Promise<Void> done = Promise.promise();
        private long bytes;
        private int next;
        private int running;
        private boolean failed;

        Window(Call call, MediaFetcher fetcher, MediaPolicy policy, List<String> order, Map<String, MediaKind> kinds,
               List<ContentBlock.Media> needed, long already) {
            this.call = call;
            this.fetcher = fetcher;
            this.policy = policy;
            this.order = order;
            this.kinds = kinds;
            this.needed = needed;
            this.failures = new Throwable[order.size()];
            this.bytes = already;
        }

        Future<Void> run() {
            startMore();
            return done.future();
        }

        private void startMore() {
            while (!failed && running < policy.maxConcurrent() && next < order.size()) {
                int i = next++;
                String url = order.get(i);
                long left = policy.maxTotalBytes() - bytes;
                running++;
                fetcher.fetch(url, Math.max(0, left)).onComplete(ar -> {
                    running--;
                    Throwable failure = null;
                    if (ar.succeeded()) {
                        bytes += ar.result().bytes();
                        try {
                            if (bytes > policy.maxTotalBytes()) {
                                throw new MediaFetcher.Refused("the media of this request add up to more than the gateway's"
                                        + " limit of " + policy.maxTotalBytes() + " bytes (media.max_total_bytes)");
                            }
                            call.fetchedMedia().put(url, asMedia(kinds.get(url), ar.result(), needed, url));
                        } catch (RuntimeException e) {
                            failure = e;
                        }
                    } else {
                        failure = ar.cause();
                    }
                    if (failure != null) {
                        failures[i] = refusal(call, url, failure);
                        failed = true;
                    }
                    if (running == 0 && (failed || next == order.size())) finish();
                    else startMore();
                });
            }
            if (running == 0 && next == order.size() && !failed) finish();
        }

        private void finish() {
            for (Throwable t : failures) {
                if (t != null) {
                    done.tryFail(t);
                    return;
                }
            }
            done.tryComplete();
        }
    }

    private static ContentBlock.Media asMedia(MediaKind kind, MediaFetcher.Fetched f, List<ContentBlock.Media> needed,
                                              String url) {
        String declared = needed.stream().filter(m -> url.equals(m.url()) && m.mediaType() != null)
                .map(ContentBlock.Media::mediaType).findFirst().orElse(null);
        String type = f.mediaType() != null ? f.mediaType() : declared;
        if (type == null) throw new MediaFetcher.Refused("its media type is unknown (no Content-Type, unrecognised bytes)");
        if (!ACCEPTED.get(kind).contains(type)) {
            // an internal page (JSON, HTML) must not travel on to the vendor inside the request
            throw new MediaFetcher.Refused("its Content-Type " + type + " is not one the gateway forwards as "
                    + switch (kind) {
                        case IMAGE -> "an image";
                        case DOCUMENT -> "a file";
                        case AUDIO -> "audio";
                    } + " (accepted: " + String.join(", ", ACCEPTED.get(kind)) + ")");
        }
        return ContentBlock.Media.base64(kind, type, f.base64());
    }

    private static Throwable refusal(Call call, String url, Throwable e) {
        if (!(e instanceof MediaFetcher.Refused)) return e;
        String field = pathOf(call.body(), url, "");
        return GatewayException.invalid(field, "Could not fetch the media URL in '" + field + "': " + e.getMessage() + ".");
    }

    /** Where {@code url} appears in the caller's body, as {@code messages[0].content[1].image_url.url}. */
    private static String pathOf(JsonNode node, String url, String at) {
        if (node.isTextual()) return url.equals(node.asText()) ? at : null;
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String p = pathOf(node.get(i), url, at + "[" + i + "]");
                if (p != null) return p;
            }
        } else if (node.isObject()) {
            for (var e : node.properties()) {
                String p = pathOf(e.getValue(), url, at.isEmpty() ? e.getKey() : at + "." + e.getKey());
                if (p != null) return p;
            }
        }
        return at.isEmpty() ? "messages" : null;
    }
}
