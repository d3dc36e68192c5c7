package dev.modelgateway.canonical;

/**
 * A parsed {@code data:} URL. Tolerates parameters before {@code ;base64} ({@code data:image/png;charset=x;base64,})
 * which naive splitting gets wrong.
 */
public record DataUrl(String mediaType, String base64) {

    public static boolean isDataUrl(String url) {
        return url != null && url.regionMatches(true, 0, "data:", 0, 5);
    }

    /** @return null when {@code url} is not a base64 data URL */
    public static DataUrl parse(String url) {
        if (!isDataUrl(url)) return null;
        int comma = url.indexOf(',');
        if (comma < 0) return null;
        String[] meta = url.substring(5, comma).split(";");
        boolean base64 = false;
        for (int i = 1; i < meta.length; i++) if (meta[i].trim().equalsIgnoreCase("base64")) base64 = true;
        if (!base64) return null;
        String type = meta[0].trim().isEmpty() ? "application/octet-stream" : meta[0].trim().toLowerCase();
        return new DataUrl(type, url.substring(comma + 1));
    }

    public static String format(String mediaType, String base64) {
        return "data:" + (mediaType == null ? "application/octet-stream" : mediaType) + ";base64," + base64;
    }
}
