package dev.modelgateway.store;

/**
 * A subsystem's tables: its migrations under {@code classpath:db/migration/<module>}, tracked in
 * {@code <module>_schema_history}, the newest of them being {@code newestVersion}.
 */
public record Schema(String module, String newestVersion) {
    String historyTable() {
        return module + "_schema_history";
    }

    String location() {
        return "classpath:db/migration/" + module;
    }
}
