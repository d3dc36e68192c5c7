package dev.modelgateway.accounts.keys;

/**
 * Glob matching for allowed models: {@code *} is any run of characters (slashes included), {@code ?} one character.
 * It runs on the event loop for every call, so it never backtracks recursively: {@code **********Z} once took 3 s a
 * call. One pass with two pointers, going back only to just after the last {@code *} seen (the classic wildcard
 * match), takes at most (glob length + 1) × (model length + 1) steps, and the glob's length is bounded when a key
 * or team is saved ({@link #MAX_LENGTH}).
 */
public final class ModelGlob {
    /** Far above any model id or useful pattern; keeps the match's cost small. */
    public static final int MAX_LENGTH = 256;

    private ModelGlob() {}

    public static boolean matches(String glob, String model) {
        if (model == null) return false;
        int g = 0, m = 0;
        // where the last '*' was in the glob, and the model position it has swallowed up to
        int star = -1, swallowed = 0;
        while (m < model.length()) {
            if (g < glob.length() && glob.charAt(g) == '*') {
                star = g++;
                swallowed = m;
            } else if (g < glob.length() && (glob.charAt(g) == '?' || glob.charAt(g) == model.charAt(m))) {
                g++;
                m++;
            } else if (star >= 0) {
                // the last '*' takes one more character; what follows it is tried again from there
                g = star + 1;
                m = ++swallowed;
            } else {
                return false;
            }
        }
        while (g < glob.length() && glob.charAt(g) == '*') g++;
        return g == glob.length();
    }
}
