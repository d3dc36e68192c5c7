package dev.modelgateway.identity;

import java.util.Base64;

/**
 * Whether a bearer credential is a JWT: three base64url parts whose first decodes to a JSON object. Such a credential
 * is only ever checked as a token, never looked up as a platform key (aisix PR #825 fell back to a key lookup for one).
 */
public final class JwtShape {
    private JwtShape() {
    }

    public static boolean looksLikeJwt(String credential) {
        if (credential == null || credential.length() < 10 || !credential.startsWith("eyJ")) return false;
        int first = credential.indexOf('.');
        int second = first < 0 ? -1 : credential.indexOf('.', first + 1);
        if (second < 0 || credential.indexOf('.', second + 1) >= 0) return false;
        try {
            String header = new String(Base64.getUrlDecoder().decode(credential.substring(0, first)), java.nio.charset.StandardCharsets.UTF_8);
            return header.trim().startsWith("{");
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
