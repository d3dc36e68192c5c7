package dev.modelgateway.config;

import java.util.Collection;
import java.util.List;

/**
 * The refusal of a key the configuration does not know, naming the nearest known one: a typo must stop the gateway,
 * not leave it on a default ({@code accounts: {databse_url: ...}} once ran the gateway on the default SQLite file).
 */
public final class UnknownSetting {
    private UnknownSetting() {
    }

    /** {@code accounts.databse_url: unknown setting; did you mean `database_url`?} */
    public static IllegalArgumentException of(String section, String key, Collection<String> known) {
        String at = section.isEmpty() ? key : section + "." + key;
        String nearest = nearest(key, known);
        List<String> sorted = known.stream().sorted().toList();
        return new IllegalArgumentException(at + ": unknown setting; " + (nearest != null ? "did you mean `" + nearest + "`?"
                : "expected one of " + String.join(", ", sorted)));
    }

    /** The known name within a few edits of {@code key} (a third of its length, at least 2), closest first; else null. */
    static String nearest(String key, Collection<String> known) {
        String best = null;
        int bestDistance = Math.max(2, key.length() / 3) + 1;
        for (String k : known) {
            int d = distance(key, k);
            if (d < bestDistance || d == bestDistance && best != null && k.compareTo(best) < 0) {
                best = k;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Damerau–Levenshtein distance (optimal string alignment): insertions, deletions, substitutions, swaps. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
