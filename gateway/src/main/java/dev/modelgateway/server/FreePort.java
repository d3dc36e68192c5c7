package dev.modelgateway.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Finds a free loopback port, so several verticle instances can share one port chosen at start-up. */
public final class FreePort {
    private FreePort() {
    }

    public static int pick() {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
