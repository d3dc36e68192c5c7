package dev.modelgateway.server;

/** The gateway could not start; the message says what was unreachable and which setting names it. */
public final class StartupFailure extends RuntimeException {
    public StartupFailure(String message, Throwable cause) {
        super(message, cause);
    }

    /** A URL without its credentials (user info, a password parameter), fit for a message. */
    static String redact(String url) {
        if (url == null) return null;
        return url.replaceAll("//[^/@?#]*@", "//***@").replaceAll("(?i)(password=)[^&;]*", "$1***");
    }

    static String reason(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c && (c.getMessage() == null || c.getMessage().isBlank())) c = c.getCause();
        String m = c.getMessage();
        return m == null || m.isBlank() ? c.getClass().getSimpleName() : m;
    }
}
