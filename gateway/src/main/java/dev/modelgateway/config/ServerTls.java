package dev.modelgateway.config;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * TLS served by the gateway itself (docs/configuration.md, "TLS"): a certificate chain and its private key,
 * both PEM files. The openai SDK's realtime client always dials {@code wss://}, so a gateway without a TLS
 * proxy in front must speak TLS itself.
 *
 * @param certFile the certificate, then any intermediates (PEM)
 * @param keyFile  its private key, PKCS#8 or PKCS#1 (PEM)
 */
public record ServerTls(Path certFile, Path keyFile) {
    static final String CERT_SETTING = Settings.SERVER_TLS_CERT_FILE.name();
    static final String KEY_SETTING = Settings.SERVER_TLS_KEY_FILE.name();

    /** Both settings, or neither (cleartext, the default: null); anything else stops the gateway at start-up. */
    static ServerTls of(String certFile, String keyFile) {
        if (certFile == null && keyFile == null) return null;
        if (certFile == null) throw new IllegalArgumentException(KEY_SETTING + " is set but " + CERT_SETTING + " is not: set both to serve TLS");
        if (keyFile == null) throw new IllegalArgumentException(CERT_SETTING + " is set but " + KEY_SETTING + " is not: set both to serve TLS");
        return new ServerTls(readable(CERT_SETTING, certFile), readable(KEY_SETTING, keyFile));
    }

    private static Path readable(String setting, String file) {
        Path p = Path.of(file);
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            throw new IllegalArgumentException(setting + " names '" + file + "', which is not a readable file");
        }
        return p;
    }

    /** What the settings are called, for a start-up failure about the files' contents. */
    public static String settings() {
        return CERT_SETTING + ", " + KEY_SETTING;
    }
}
