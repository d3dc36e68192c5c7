package dev.modelgateway.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A directory laid out as the kubelet lays out a Secret (or ConfigMap) volume: each entry {@code name} is a link to
 * {@code ..data/name}, {@code ..data} a link to a timestamped directory holding the files. An update writes a new
 * directory and swaps {@code ..data} to it with one rename, so a reader sees the old files or the new ones, never a
 * mix: the kubelet's atomic writer (kubernetes pkg/volume/util/atomic_writer.go).
 */
public final class SecretVolume implements AutoCloseable {
    private final Path dir;
    private int version;

    private SecretVolume(Path dir) {
        this.dir = dir;
    }

    public static SecretVolume create(Map<String, String> entries) {
        try {
            SecretVolume volume = new SecretVolume(Files.createTempDirectory("secret-volume"));
            volume.update(entries);
            return volume;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where an entry is read, as a pod reads it ({@code /run/secrets/<name>}). */
    public Path path(String name) {
        return dir.resolve(name);
    }

    /** Replaces the whole content, as the kubelet does when the Secret changes. */
    public void update(Map<String, String> entries) {
        try {
            Path previous = Files.isSymbolicLink(dir.resolve("..data")) ? dir.resolve(Files.readSymbolicLink(dir.resolve("..data"))) : null;
            Path data = Files.createDirectory(dir.resolve("..v" + (++version)));
            for (Map.Entry<String, String> e : entries.entrySet()) Files.writeString(data.resolve(e.getKey()), e.getValue());
            Path next = Files.createSymbolicLink(dir.resolve("..data_tmp"), data.getFileName());
            Files.move(next, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
            for (String name : entries.keySet()) {
                if (!Files.isSymbolicLink(dir.resolve(name))) Files.createSymbolicLink(dir.resolve(name), Path.of("..data", name));
            }
            if (previous != null) delete(previous);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        delete(dir);
    }

    private static void delete(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind
        }
    }
}
