package dev.modelgateway.wire.openai.media;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.LocalTokenizer;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorOperation;

/**
 * Vendor B's text-to-speech: the body with {@code model} rewritten; the audio piped back as it comes. The binary
 * answer has no usage, so the call's usage is the input text's tokens, counted here.
 */
public final class OpenAiSpeech {
    private OpenAiSpeech() {
    }

    public static VendorOperation operation(ObjectNode body, String input) {
        return new VendorOperation(upstreamModel -> OperationRequest.json("/audio/speech", body.deepCopy().put("model", upstreamModel)),
                new OperationAnswer.Bytes(new Usage(LocalTokenizer.count(input), 0, 0, 0, 0, 0)), VendorErrors.AS_SENT);
    }
}
