package dev.modelgateway.upstream;

import java.util.Locale;

/** The media type of downloaded bytes: the server's Content-Type when it is specific, else the magic bytes. */
final class MediaTypes {
    private MediaTypes() {
    }

    /** @return null when neither says */
    static String of(String contentType, byte[] bytes) {
        String declared = contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (!declared.isEmpty() && !declared.equals("application/octet-stream") && !declared.equals("binary/octet-stream")) {
            return declared;
        }
        return sniff(bytes);
    }

    private static String sniff(byte[] b) {
        if (startsWith(b, 0, 0x89, 'P', 'N', 'G')) return "image/png";
        if (startsWith(b, 0, 0xff, 0xd8, 0xff)) return "image/jpeg";
        if (startsWith(b, 0, 'G', 'I', 'F', '8')) return "image/gif";
        if (startsWith(b, 0, 'R', 'I', 'F', 'F') && startsWith(b, 8, 'W', 'E', 'B', 'P')) return "image/webp";
        if (startsWith(b, 0, 'R', 'I', 'F', 'F') && startsWith(b, 8, 'W', 'A', 'V', 'E')) return "audio/wav";
        if (startsWith(b, 0, '%', 'P', 'D', 'F')) return "application/pdf";
        if (startsWith(b, 0, 'I', 'D', '3')) return "audio/mpeg";
        return null;
    }

    private static boolean startsWith(byte[] b, int at, int... magic) {
        if (b.length < at + magic.length) return false;
        for (int i = 0; i < magic.length; i++) if ((b[at + i] & 0xff) != magic[i]) return false;
        return true;
    }
}
