package dev.modelgateway.accounts.keys;

/** Glob matching for allowed models: {@code *} is any run of characters (slashes included), {@code ?} one character. */
public final class ModelGlob {
    private ModelGlob() {}

    public static boolean matches(String glob, String model) {
        return model != null && matches(glob, 0, model, 0);
    }

    private static boolean matches(String g, int gi, String m, int mi) {
        while (gi < g.length()) {
            char c = g.charAt(gi);
            if (c == '*') {
                for (int k = mi; k <= m.length(); k++) {
                    if (matches(g, gi + 1, m, k)) return true;
                }
                return false;
            }
            if (mi >= m.length() || (c != '?' && c != m.charAt(mi))) return false;
            gi++;
            mi++;
        }
        return mi == m.length();
    }
}
