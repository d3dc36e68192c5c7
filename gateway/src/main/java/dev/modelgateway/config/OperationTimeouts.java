package dev.modelgateway.config;

import java.time.Duration;

/**
 * How long one vendor call of each endpoint without {@code platform_options} may take, from the request to the
 * answer's last byte (section {@code timeouts}, docs/configuration.md). Chat, messages and Responses calls take
 * theirs from {@code platform_options.timeout} instead.
 *
 * @param embeddingsSeconds      {@code POST /embeddings}
 * @param countTokensSeconds     vendor A's token counting
 * @param speechSeconds          {@code POST /audio/speech}, the audio streamed back included
 * @param imagesSeconds          image generation, edits and scales (a vendor takes up to minutes for large images)
 * @param storedResponsesSeconds retrieving or deleting a vendor B response
 * @param transcriptionsSeconds  one transcription, direct or as a task
 */
public record OperationTimeouts(long embeddingsSeconds, long countTokensSeconds, long speechSeconds, long imagesSeconds,
                                long storedResponsesSeconds, long transcriptionsSeconds) {

    public static final OperationTimeouts DEFAULT = new OperationTimeouts(60, 30, 120, 300, 60, 300);

    public OperationTimeouts {
        for (long s : new long[] {embeddingsSeconds, countTokensSeconds, speechSeconds, imagesSeconds, storedResponsesSeconds,
                transcriptionsSeconds}) {
            if (s < 1 || s > 3600) throw new IllegalArgumentException("timeouts must be between 1 and 3600 seconds, got " + s);
        }
    }

    public Duration embeddings() { return Duration.ofSeconds(embeddingsSeconds); }
    public Duration countTokens() { return Duration.ofSeconds(countTokensSeconds); }
    public Duration speech() { return Duration.ofSeconds(speechSeconds); }
    public Duration images() { return Duration.ofSeconds(imagesSeconds); }
    public Duration storedResponses() { return Duration.ofSeconds(storedResponsesSeconds); }
    public Duration transcriptions() { return Duration.ofSeconds(transcriptionsSeconds); }
}
