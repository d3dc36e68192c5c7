package dev.modelgateway.call;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.MediaKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.upstream.MediaFetcher;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map.Entry;
import java.util.Map;
import java.util.Set;

/**
 * Gives a vendor that cannot fetch URLs the bytes instead: downloads each URL medium it needs (in parallel,
 * each URL once per call, so a retry or a fallback to another such vendor does not download again) and
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
        Map<String, ContentBlock.Media> fetched = call.fetchedMedia();
        Map<String, MediaKind> missing = new HashMap<>();
        Set<String> order = new LinkedHashSet<>();
        for (ContentBlock.Media m : needed) {
            if (!fetched.containsKey(m.url())) {
                missing.putIfAbsent(m.url(), m.kind());
                order.add(m.url());
            }
        }
        List<Future<Entry<String, ContentBlock.Media>>> downloads = new ArrayList<>();
        for (String url : order) {
            downloads.add(fetcher.fetch(url)
                    .map(f -> Map.entry(url, asMedia(missing.get(url), f, needed, url)))
                    .recover(e -> Future.failedFuture(refusal(call, url, e))));
        }
        return Future.all(downloads).transform(ar -> {
            // the first failure in document order, not the first to finish
            for (Future<Entry<String, ContentBlock.Media>> d : downloads) {
                if (d.failed()) return Future.failedFuture(d.cause());
            }
            downloads.forEach(d -> fetched.put(d.result().getKey(), d.result().getValue()));
            return Future.succeededFuture(request.withInlinedMedia(fetched));
        });
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
