package dev.modelgateway.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The release this build is ({@code 0.2.0}, or {@code 0.3.0-SNAPSHOT} between releases; docs/release.md): written
 * into {@code version.properties} by Maven's resource filtering, so that the classes directory of a test run knows it
 * as the jar does. {@code gateway --version} and {@code /health} report it.
 */
public final class Version {
    static final String UNKNOWN = "unknown";
    private static final String CURRENT = read();

    private Version() {
    }

    public static String current() {
        return CURRENT;
    }

    private static String read() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            // missing or unfiltered: a build that did not run Maven's resources phase (an IDE's own compiler)
            if (in == null) return UNKNOWN;
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "");
            return v.isBlank() || v.startsWith("${") ? UNKNOWN : v;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
