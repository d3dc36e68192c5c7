package dev.modelgateway.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a JMH JSON result file (run with {@code -prof gc -rf json}) into the markdown table of
 * bench/results/jmh-latest.md: operations/s, input MB/s and SSE events/s, allocation per operation and per
 * SSE event (= gc.alloc.rate.norm / events per operation; "event" = one upstream SSE frame, i.e. one chunk), and
 * allocation ÷ input: heap bytes allocated per upstream byte.
 * Usage: java -cp benchmarks.jar dev.modelgateway.bench.ResultsTable jmh.json [command line to print]
 */
public final class ResultsTable {

    public static void main(String[] args) throws IOException {
        JsonNode runs = new ObjectMapper().readTree(Files.readAllBytes(Path.of(args[0])));
        StringBuilder md = new StringBuilder();
        md.append("| benchmark | params | ops/s (± 99.9% CI) | input MB/s | SSE events/s | B/op | events/op | B/event | alloc ÷ input |\n");
        md.append("|---|---|---|---|---|---|---|---|---|\n");
        for (JsonNode run : runs) {
            String bench = run.path("benchmark").asText().replace("dev.modelgateway.bench.", "");
            JsonNode params = run.path("params");
            String stream = streamOf(bench, params);
            int repeat = bench.startsWith("SseParserBench") ? SseParserBench.REPEAT : 1;
            byte[] bytes = Workloads.bytes(stream, repeat);
            int events = Workloads.events(bytes);
            JsonNode pm = run.path("primaryMetric");
            double ops = pm.path("score").asDouble();
            double err = pm.path("scoreError").asDouble();
            double alloc = secondary(run, "gc.alloc.rate.norm");
            md.append(String.format(Locale.ROOT, "| %s | %s | %,.0f ± %,.0f | %,.1f | %,.0f | %s | %d | %s | %s |%n",
                    bench, paramText(params), ops, Double.isNaN(err) ? 0 : err, ops * bytes.length / 1e6, ops * events,
                    Double.isNaN(alloc) ? "n/a" : String.format(Locale.ROOT, "%,.0f", alloc), events,
                    Double.isNaN(alloc) ? "n/a" : String.format(Locale.ROOT, "%,.0f", alloc / events),
                    Double.isNaN(alloc) ? "n/a" : String.format(Locale.ROOT, "%.1f×", alloc / bytes.length)));
        }
        System.out.print(md);
    }

    private static String streamOf(String bench, JsonNode params) {
        if (params.has("stream")) return params.get("stream").asText();
        return params.path("scenario").asText().split("_")[0];
    }

    private static String paramText(JsonNode params) {
        StringBuilder sb = new StringBuilder();
        for (Iterator<Map.Entry<String, JsonNode>> it = params.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!sb.isEmpty()) sb.append(", ");
            sb.append(e.getKey()).append('=').append(e.getValue().asText());
        }
        return sb.toString();
    }

    /** JMH 1.37 names it "gc.alloc.rate.norm"; older versions prefix a middle dot. */
    private static double secondary(JsonNode run, String suffix) {
        for (Iterator<Map.Entry<String, JsonNode>> it = run.path("secondaryMetrics").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().endsWith(suffix)) return e.getValue().path("score").asDouble();
        }
        return Double.NaN;
    }
}
