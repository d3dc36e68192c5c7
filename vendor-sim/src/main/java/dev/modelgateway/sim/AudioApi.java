package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * OpenAI audio: {@code /audio/speech} streams deterministic audio bytes (a valid silent WAV for wav/pcm, bytes
 * with the right magic number otherwise) in four chunks, or SSE with {@code stream_format:"sse"};
 * {@code /audio/transcriptions} (multipart) returns a fixed transcript in the requested format.
 */
final class AudioApi {
    private static final int SAMPLE_RATE = 24_000;
    private final VendorSimulator sim;

    AudioApi(VendorSimulator sim) {
        this.sim = sim;
    }

    void speech(Exchange ex, String body) {
        JsonNode root = Prelude.begin(sim, ex, body, null, m -> "The model `" + m + "` does not exist or you do not have access to it.");
        if (root == null) return;
        for (String field : new String[]{"model", "input", "voice"}) {
            if (!root.hasNonNull(field)) {
                ex.fail(400, "Missing required parameter: '" + field + "'.", "missing_required_parameter");
                return;
            }
        }
        String format = root.path("response_format").asText("mp3");
        byte[] audio = audio(format, root.get("input").asText());
        if ("sse".equals(Json.text(root, "stream_format"))) {
            List<String> events = new ArrayList<>();
            for (byte[] chunk : split(audio, 4)) {
                events.add(ResponsesApi.event("speech.audio.delta", Json.write(Json.obj().put("type", "speech.audio.delta")
                        .put("audio", Base64.getEncoder().encodeToString(chunk)))));
            }
            int in = Tokens.of(root.get("input").asText());
            ObjectNode done = Json.obj().put("type", "speech.audio.done");
            done.putObject("usage").put("input_tokens", in).put("output_tokens", audio.length / 100).put("total_tokens", in + audio.length / 100);
            events.add(ResponsesApi.event("speech.audio.done", Json.write(done)));
            ex.stream(Exchange.SSE, events, ResponsesApi.event("error", "{\"type\":\"error\",\"error\":{\"type\":\"server_error\",\"message\":\"The server had an error\"}}"),
                    "event: speech.audio.delta\ndata: {\"type\":\n\n");
            return;
        }
        List<Buffer> chunks = new ArrayList<>();
        for (byte[] c : split(audio, 4)) chunks.add(Buffer.buffer(c));
        ex.binary(mime(format), chunks);
    }

    void transcriptions(Exchange ex, Buffer raw) {
        List<Multipart.Part> parts = Multipart.parse(ex.req.getHeader("content-type"), raw);
        if (parts == null) {
            ex.fail(400, "Invalid Content-Type header (" + ex.req.getHeader("content-type") + "), expected multipart/form-data.", null);
            return;
        }
        Multipart.Part file = Multipart.first(parts, "file"), model = Multipart.first(parts, "model");
        Multipart.Part prompt = Multipart.first(parts, "prompt"), format = Multipart.first(parts, "response_format");
        ex.directive = sim.faults.resolve(ex.vendor, Directive.find(prompt == null ? "" : prompt.text()));
        if (model != null && model.text().contains("does-not-exist")) {
            ex.fail(404, "The model `" + model.text() + "` does not exist or you do not have access to it.", "model_not_found");
            return;
        }
        if (ex.directive.status() > 0) {
            ex.fail(ex.directive.status(), null, null);
            return;
        }
        if (file == null || model == null) {
            ex.fail(400, "Missing required parameter: '" + (file == null ? "file" : "model") + "'.", "missing_required_parameter");
            return;
        }
        String text = "Simulated transcript of " + file.data().length + " bytes of audio.";
        String fmt = format == null ? "json" : format.text().trim();
        switch (fmt) {
            case "text" -> ex.raw(200, "text/plain; charset=utf-8", Buffer.buffer(text + "\n"));
            case "srt" -> ex.raw(200, "text/plain; charset=utf-8", Buffer.buffer("1\n00:00:00,000 --> 00:00:01,000\n" + text + "\n\n"));
            case "vtt" -> ex.raw(200, "text/plain; charset=utf-8", Buffer.buffer("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n" + text + "\n\n"));
            case "verbose_json" -> {
                ObjectNode o = Json.obj().put("task", "transcribe").put("language", "english").put("duration", 1.0).put("text", text);
                o.putArray("segments").addObject().put("id", 0).put("seek", 0).put("start", 0.0).put("end", 1.0).put("text", text);
                ex.ok(Json.write(o));
            }
            default -> {
                ObjectNode o = Json.obj().put("text", text);
                if (model.text().startsWith("whisper")) o.putObject("usage").put("type", "duration").put("seconds", 1);
                else {
                    int out = Tokens.of(text), in = Math.max(1, file.data().length / 100);
                    o.putObject("usage").put("type", "tokens").put("input_tokens", in).put("output_tokens", out).put("total_tokens", in + out);
                }
                ex.ok(Json.write(o));
            }
        }
    }

    static String mime(String format) {
        return switch (format) {
            case "opus" -> "audio/ogg";
            case "aac" -> "audio/aac";
            case "flac" -> "audio/flac";
            case "wav" -> "audio/wav";
            case "pcm" -> "audio/pcm";
            default -> "audio/mpeg";
        };
    }

    /** About 20 ms of audio per input character, silent, with a header the format's decoders recognise. */
    static byte[] audio(String format, String input) {
        int samples = Math.max(SAMPLE_RATE / 10, input.length() * SAMPLE_RATE / 50);
        int pcmBytes = samples * 2;
        if (format.equals("pcm")) return new byte[pcmBytes];
        if (format.equals("wav")) {
            ByteBuffer b = ByteBuffer.allocate(44 + pcmBytes).order(ByteOrder.LITTLE_ENDIAN);
            b.put("RIFF".getBytes()).putInt(36 + pcmBytes).put("WAVE".getBytes()).put("fmt ".getBytes()).putInt(16)
                    .putShort((short) 1).putShort((short) 1).putInt(SAMPLE_RATE).putInt(SAMPLE_RATE * 2).putShort((short) 2).putShort((short) 16)
                    .put("data".getBytes()).putInt(pcmBytes);
            return b.array();
        }
        byte[] out = new byte[Math.max(64, pcmBytes / 8)];
        byte[] magic = switch (format) {
            case "opus" -> "OggS".getBytes();
            case "flac" -> "fLaC".getBytes();
            case "aac" -> new byte[]{(byte) 0xFF, (byte) 0xF1};
            default -> new byte[]{'I', 'D', '3', 4, 0, 0, 0, 0, 0, 0};
        };
        System.arraycopy(magic, 0, out, 0, magic.length);
        return out;
    }

    static List<byte[]> split(byte[] data, int pieces) {
        List<byte[]> out = new ArrayList<>(pieces);
        int size = (data.length + pieces - 1) / pieces;
        for (int i = 0; i < data.length; i += size) {
            byte[] c = new byte[Math.min(size, data.length - i)];
            System.arraycopy(data, i, c, 0, c.length);
            out.add(c);
        }
        return out;
    }
}
