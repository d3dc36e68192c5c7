package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/** Each vendor's own error body for an HTTP status, with stock messages modelled on real responses. */
final class VendorErrors {
    private VendorErrors() {
    }

    static String requestId(String prefix) {
        return prefix + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
    }

    // ---- Anthropic: {"type":"error","error":{"type","message"},"request_id"}
    static String anthropicType(int status) {
        return switch (status) {
            case 401 -> "authentication_error";
            case 402 -> "billing_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 504 -> "timeout_error";
            case 529 -> "overloaded_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
    }

    static String anthropic(int status, String message, String ignoredCode) {
        String type = anthropicType(status);
        String msg = message != null ? message : switch (type) {
            case "authentication_error" -> "invalid x-api-key";
            case "permission_error" -> "Your API key does not have permission to use the specified resource.";
            case "not_found_error" -> "Not found";
            case "rate_limit_error" -> "This request would exceed the rate limit for your organization. Please try again later.";
            case "overloaded_error" -> "Overloaded";
            case "api_error" -> "Internal server error";
            case "timeout_error" -> "Request timed out";
            case "billing_error" -> "Your credit balance is too low to access the Anthropic API.";
            case "request_too_large" -> "Request exceeds the maximum allowed number of bytes.";
            default -> "Invalid request";
        };
        ObjectNode root = Json.obj().put("type", "error");
        root.putObject("error").put("type", type).put("message", msg);
        root.put("request_id", requestId("req_sim_"));
        return Json.write(root);
    }

    /** Anthropic mid-stream error event payload (no request_id, as in recordings). */
    static String anthropicStreamError() {
        return "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";
    }

    // ---- OpenAI: {"error":{"message","type","param","code"}}
    static String openai(int status, String message, String code) {
        String type, msg, c;
        switch (status) {
            case 401 -> { type = "invalid_request_error"; c = "invalid_api_key";
                msg = "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys."; }
            case 403 -> { type = "invalid_request_error"; c = "unsupported_country_region_territory";
                msg = "Country, region, or territory not supported"; }
            case 404 -> { type = "invalid_request_error"; c = "model_not_found";
                msg = "The requested model does not exist or you do not have access to it."; }
            case 429 -> { type = "requests"; c = "rate_limit_exceeded";
                msg = "Rate limit reached for requests. Please try again later."; }
            case 503 -> { type = "server_error"; c = null;
                msg = "The engine is currently overloaded, please try again later"; }
            default -> {
                if (status >= 500) { type = "server_error"; c = null;
                    msg = "The server had an error while processing your request. Sorry about that!"; }
                else { type = "invalid_request_error"; c = null; msg = "Invalid request"; }
            }
        }
        ObjectNode root = Json.obj();
        ObjectNode e = root.putObject("error");
        e.put("message", message != null ? message : msg).put("type", type).putNull("param");
        String finalCode = code != null ? code : c;
        if (finalCode == null) e.putNull("code"); else e.put("code", finalCode);
        return Json.writePretty(root);
    }

    static String openaiParam(String message, String param, String code) {
        ObjectNode root = Json.obj();
        root.putObject("error").put("message", message).put("type", "invalid_request_error").put("param", param).put("code", code);
        return Json.writePretty(root);
    }

    static String openaiStreamError() {
        return "{\"error\":{\"message\":\"The server had an error while processing your request.\",\"type\":\"server_error\",\"param\":null,\"code\":null}}";
    }

    // ---- DashScope compatible mode: OpenAI shape plus id and request_id
    static String dashscope(int status, String message, String code) {
        String type, msg, c;
        switch (status) {
            case 400 -> { type = "invalid_request_error"; c = "invalid_parameter_error";
                msg = "<400> InternalError.Algo.InvalidParameter: Invalid request"; }
            case 401 -> { type = "invalid_request_error"; c = "invalid_api_key"; msg = "Incorrect API key provided. "; }
            case 403 -> { type = "AccessDenied"; c = "AccessDenied"; msg = "Access denied."; }
            case 404 -> { type = "invalid_request_error"; c = "model_not_found";
                msg = "The model does not exist or you do not have access to it."; }
            case 429 -> { type = "limit_requests"; c = "limit_requests";
                msg = "Requests rate limit exceeded, please try again later."; }
            case 503 -> { type = "ServiceUnavailable"; c = "ServiceUnavailable"; msg = "<503> Service is temporarily unavailable."; }
            default -> {
                if (status >= 500) { type = "internal_error"; c = "internal_error"; msg = "An internal error has occured, please try again later."; }
                else { type = "invalid_request_error"; c = "invalid_parameter_error"; msg = "Invalid request"; }
            }
        }
        String rid = UUID.randomUUID().toString();
        ObjectNode root = Json.obj();
        ObjectNode e = root.putObject("error");
        e.put("message", message != null ? message : msg).put("type", type).putNull("param")
                .put("code", code != null ? code : c);
        root.put("id", "chatcmpl-" + rid).put("request_id", rid);
        return Json.write(root);
    }

    static String dashscopeStreamError() {
        return "{\"error\":{\"code\":\"data_inspection_failed\",\"param\":null,\"message\":\"Output data may contain inappropriate content.\",\"type\":\"data_inspection_failed\"}}";
    }

    // ---- Google: {"error":{"code","message","status"}}
    static String googleStatus(int status) {
        return switch (status) {
            case 400 -> "INVALID_ARGUMENT";
            case 401 -> "UNAUTHENTICATED";
            case 403 -> "PERMISSION_DENIED";
            case 404 -> "NOT_FOUND";
            case 409 -> "ABORTED";
            case 429 -> "RESOURCE_EXHAUSTED";
            case 499 -> "CANCELLED";
            case 501 -> "UNIMPLEMENTED";
            case 503 -> "UNAVAILABLE";
            case 504 -> "DEADLINE_EXCEEDED";
            default -> status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
        };
    }

    static String gemini(int status, String message, String ignoredCode) {
        String st = googleStatus(status);
        String msg = message != null ? message : switch (st) {
            case "RESOURCE_EXHAUSTED" -> "You exceeded your current quota, please check your plan and billing details.";
            case "UNAVAILABLE" -> "The model is overloaded. Please try again later.";
            case "INTERNAL" -> "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting";
            case "DEADLINE_EXCEEDED" -> "The request timed out. Please try again.";
            case "PERMISSION_DENIED" -> "The caller does not have permission";
            case "NOT_FOUND" -> "Requested entity was not found.";
            default -> "Request contains an invalid argument.";
        };
        ObjectNode root = Json.obj();
        root.putObject("error").put("code", status).put("message", msg).put("status", st);
        return Json.writePretty(root) + "\n";
    }

    static String geminiStreamError() {
        return "{\"error\": {\"code\": 503, \"message\": \"The model is overloaded. Please try again later.\", \"status\": \"UNAVAILABLE\"}}";
    }
}
