package dev.modelgateway.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A provider's {@code google} block (docs/clouds.md, "Google credentials"): where its access tokens come from. Two
 * providers with equal settings are one identity and share one cached token ({@code credentials/google/GoogleTokenCache}).
 * It lives in {@code config} because the provider's configuration is read here; {@code credentials/google} turns it
 * into a token source.
 *
 * @param source           which of Google's credential kinds
 * @param credentialsFile  the service-account or external_account JSON (absolute); null for {@code default} and {@code metadata}
 * @param scopes           the OAuth scopes asked for, sorted and distinct (their order means nothing to Google)
 * @param tokenUrl         where tokens are asked for instead of the file's {@code token_uri} / {@code token_url}; null: the file's
 * @param metadataEndpoint the metadata server's base URL instead of {@code http://metadata.google.internal}; null: the library's
 */
public record GoogleCredentialsSettings(Source source, Path credentialsFile, List<String> scopes, URI tokenUrl,
                                        URI metadataEndpoint) {
    /** Vertex AI's scope (cloud.google.com/vertex-ai/docs/authentication). */
    public static final String CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform";
    private static final Set<String> KEYS = Set.of("source", "credentials_file", "scopes", "token_url", "metadata_endpoint");
    /** A credential file is a few KiB; anything far larger is not one, and is not read whole. */
    private static final long MAX_FILE_BYTES = 64 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    public enum Source {
        /** Application default credentials: GOOGLE_APPLICATION_CREDENTIALS, gcloud's file, then the metadata server. */
        DEFAULT("default"),
        /** A service-account key file: a JWT signed with its key, exchanged at the token endpoint (RFC 7523). */
        SERVICE_ACCOUNT("service_account"),
        /** The GCE / GKE metadata server (GKE workload identity: the pod's Kubernetes service account's Google identity). */
        METADATA("metadata"),
        /** Workload identity federation: another identity provider's token exchanged at Google's STS. */
        EXTERNAL_ACCOUNT("external_account");

        private final String id;

        Source(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        static Source of(String at, String id) {
            for (Source s : values()) if (s.id.equals(id)) return s;
            throw new IllegalArgumentException(at + " must be one of default, service_account, metadata, external_account, got '"
                    + id + "'");
        }
    }

    public GoogleCredentialsSettings {
        scopes = List.copyOf(new TreeSet<>(scopes));
    }

    /**
     * Reads and checks the block at {@code path} (such as {@code providers.gcp.google}). A credential file is checked
     * to exist and to be JSON of the source's {@code type} with the fields the library needs; its values are never
     * repeated in a message, the key least of all.
     *
     * @throws IllegalArgumentException naming the setting at fault
     */
    public static GoogleCredentialsSettings parse(String path, Map<String, Object> yaml) {
        Map<String, Object> block = yaml == null ? Map.of() : yaml;
        for (String key : block.keySet()) if (!KEYS.contains(key)) throw UnknownSetting.of(path, key, KEYS);
        Path file = block.containsKey("credentials_file") ? file(path + ".credentials_file", block.get("credentials_file")) : null;
        JsonNode json = file == null ? null : read(path + ".credentials_file", file);
        String type = json != null && json.path("type").isTextual() ? json.path("type").asText() : null;
        Source source = block.containsKey("source") ? Source.of(path + ".source", text(path + ".source", block.get("source")))
                : file == null ? Source.DEFAULT : fileSource(path + ".credentials_file", file, type);
        List<String> scopes = block.containsKey("scopes") ? scopes(path + ".scopes", block.get("scopes")) : List.of(CLOUD_PLATFORM);
        URI tokenUrl = block.containsKey("token_url") ? url(path + ".token_url", block.get("token_url")) : null;
        URI metadata = block.containsKey("metadata_endpoint") ? url(path + ".metadata_endpoint", block.get("metadata_endpoint")) : null;

        boolean usesFile = source == Source.SERVICE_ACCOUNT || source == Source.EXTERNAL_ACCOUNT;
        if (usesFile && file == null) {
            throw new IllegalArgumentException(path + ".credentials_file is required for source " + source.id);
        }
        if (!usesFile && file != null) {
            throw new IllegalArgumentException(path + ".credentials_file applies to source service_account or external_account"
                    + " only (source " + source.id + (source == Source.DEFAULT ? " reads GOOGLE_APPLICATION_CREDENTIALS)" : ")"));
        }
        if (usesFile) checkFile(path + ".credentials_file", file, json, type, source);
        if (tokenUrl != null && !usesFile) {
            throw new IllegalArgumentException(path + ".token_url applies to source service_account or external_account only");
        }
        if (metadata != null && usesFile) {
            throw new IllegalArgumentException(path + ".metadata_endpoint applies to source metadata or default only");
        }
        return new GoogleCredentialsSettings(source, file, scopes, tokenUrl, metadata);
    }

    /** The same, from the block as {@link CloudAccount#google()} keeps it (null: application default credentials). */
    public static GoogleCredentialsSettings parse(String path, JsonNode block) {
        if (block == null || block.isNull()) return parse(path, (Map<String, Object>) null);
        if (!block.isObject()) throw new IllegalArgumentException(path + " must be a mapping of credential settings");
        return parse(path, JSON.convertValue(block, new TypeReference<Map<String, Object>>() { }));
    }

    /** What an operator may be told about this identity: its kind and file, nothing read from the file. */
    public String describe() {
        return "google " + source.id + (credentialsFile == null ? "" : " " + credentialsFile);
    }

    private static String text(String at, Object value) {
        if (!(value instanceof String s) || s.isBlank()) throw new IllegalArgumentException(at + " must be a non-empty string");
        return s.trim();
    }

    private static Path file(String at, Object value) {
        Path file = Path.of(text(at, value)).toAbsolutePath().normalize();
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException(at + ": no file at " + file);
        if (!Files.isReadable(file)) throw new IllegalArgumentException(at + ": " + file + " is not readable by the gateway");
        return file;
    }

    /** Without {@code source}, a credential file says what it is. */
    private static Source fileSource(String at, Path file, String type) {
        if (Source.SERVICE_ACCOUNT.id.equals(type)) return Source.SERVICE_ACCOUNT;
        if (Source.EXTERNAL_ACCOUNT.id.equals(type)) return Source.EXTERNAL_ACCOUNT;
        throw new IllegalArgumentException(at + ": " + file + " is neither a service_account nor an external_account file");
    }

    private static void checkFile(String at, Path file, JsonNode json, String type, Source source) {
        if (!source.id.equals(type)) {
            String found = type == null ? "has no type" : type.matches("[a-z_]{1,40}") ? "is of type " + type : "has an unknown type";
            throw new IllegalArgumentException(at + ": " + file + " " + found + "; source " + source.id + " needs a file of type "
                    + source.id);
        }
        // The fields google-auth-library reads (ServiceAccountCredentials.fromJson, ExternalAccountCredentials.fromJson).
        List<String> required = source == Source.SERVICE_ACCOUNT ? List.of("client_email", "private_key")
                : List.of("audience", "subject_token_type", "credential_source");
        List<String> missing = new ArrayList<>();
        for (String field : required) if (json.path(field).isMissingNode() || json.path(field).isNull()) missing.add(field);
        if (!missing.isEmpty()) throw new IllegalArgumentException(at + ": " + file + " lacks " + String.join(", ", missing));
    }

    private static JsonNode read(String at, Path file) {
        try {
            if (Files.size(file) > MAX_FILE_BYTES) throw new IllegalArgumentException(at + ": " + file + " is larger than a credential file");
            JsonNode json = JSON.readTree(Files.readAllBytes(file));
            if (json == null || !json.isObject()) throw new IllegalArgumentException(at + ": " + file + " is not a JSON object");
            return json;
        } catch (JsonProcessingException e) {
            // Jackson's message quotes the text it choked on, which may be part of a key.
            throw new IllegalArgumentException(at + ": " + file + " is not valid JSON (line " + e.getLocation().getLineNr() + ")");
        } catch (IOException e) {
            throw new IllegalArgumentException(at + ": " + file + " could not be read (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static List<String> scopes(String at, Object value) {
        List<?> items = value instanceof List<?> l ? l : value instanceof String s ? Arrays.asList(s.trim().split("\\s+")) : null;
        if (items == null || items.isEmpty()) throw new IllegalArgumentException(at + " must be a scope or a list of scopes");
        List<String> scopes = new ArrayList<>();
        for (Object item : items) scopes.add(text(at, item));
        return scopes;
    }

    private static URI url(String at, Object value) {
        String text = text(at, value);
        URI uri;
        try {
            uri = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        String scheme = uri == null || uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getUserInfo() != null) {
            // not repeated: a URL with user info carries a password
            throw new IllegalArgumentException(at + " must be an http(s) URL without user info, such as http://127.0.0.1:8080");
        }
        return uri;
    }
}
