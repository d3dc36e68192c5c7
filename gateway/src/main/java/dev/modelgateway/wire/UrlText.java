package dev.modelgateway.wire;

import java.nio.charset.StandardCharsets;

/**
 * Text put into a vendor URL's path or query, encoded as {@code application/x-www-form-urlencoded} (what
 * {@code java.net.URLEncoder} does, which the pure wire packages may not use): letters, digits and {@code .-*_}
 * stay, a space becomes {@code +}, every other byte of the UTF-8 form {@code %XX}.
 */
public final class UrlText {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private UrlText() {
    }

    public static String encode(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '*' || c == '_') {
                out.append(c);
            } else if (c == ' ') {
                out.append('+');
            } else {
                out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return out.toString();
    }
}
