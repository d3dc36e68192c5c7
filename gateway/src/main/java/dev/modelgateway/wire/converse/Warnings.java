package dev.modelgateway.wire.converse;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The dropped-parameter notes of one request, for the caller's warning header. */
final class Warnings {
    private final List<String> list = new ArrayList<>();
    private final Set<String> once = new HashSet<>();

    void add(String param, String message) {
        list.add(param + ": " + message);
    }

    /** A note given once per request however many blocks it concerns. */
    void once(String key, String message) {
        if (once.add(key)) list.add(message);
    }

    List<String> list() {
        return list;
    }
}
