package dev.modelgateway.credentials;

/**
 * A credential failure as an operator may read it: the exception's kind and message, one line, bounded. The
 * clouds' libraries do not put secrets in their messages; the bound keeps a token endpoint's echoed body short.
 */
final class CredentialProblems {
    private static final int MAX = 300;

    private CredentialProblems() {
    }

    static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String message = root.getMessage() == null ? "" : root.getMessage().replaceAll("\\s+", " ").trim();
        String text = root.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
        return text.length() <= MAX ? text : text.substring(0, MAX) + "…";
    }
}
