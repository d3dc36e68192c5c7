package dev.modelgateway.wire.openai.responses;

/** Output item ids derived from the response id ({@code msg_<suffix>_0}, {@code fc_<suffix>_1}…), unique per response. */
final class ItemIds {
    private final String suffix;
    private int next;

    ItemIds(String responseId) {
        this.suffix = responseId.startsWith("resp_") ? responseId.substring(5) : responseId;
    }

    String next(String prefix) {
        return prefix + "_" + suffix + "_" + next++;
    }

    /** The gateway response an item id was made for ({@code fc_gw_<hex>_1} → {@code resp_gw_<hex>}), or null. */
    static String responseOf(String itemId) {
        int gw = itemId.indexOf("_gw_");
        int last = itemId.lastIndexOf('_');
        return gw < 0 || last <= gw + 3 ? null : "resp" + itemId.substring(gw, last);
    }
}
