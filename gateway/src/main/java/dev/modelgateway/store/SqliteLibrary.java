package dev.modelgateway.store;

import org.sqlite.util.LibraryLoaderUtil;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * sqlite-jdbc's native library, written once to a directory that {@code -Dorg.sqlite.lib.path} then names.
 * Without that property sqlite-jdbc works out the platform at every start (on Linux it runs {@code uname -o}
 * to tell Android from other systems, a process of its own), then copies the library out of the jar into a
 * temporary file and compares the two; with it, it loads the library from there directly (sqlite-jdbc's
 * USAGE.md, "How to use a specific native library").
 */
public final class SqliteLibrary {
    private SqliteLibrary() {
    }

    /**
     * Writes the library sqlite-jdbc uses on this machine into {@code dir}, under the name it looks for.
     *
     * @return the file written, or null when sqlite-jdbc has no library for this platform in the jar
     */
    public static Path export(Path dir) throws IOException {
        String name = LibraryLoaderUtil.getNativeLibName();
        try (InputStream in = LibraryLoaderUtil.class.getResourceAsStream(LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name)) {
            if (in == null) return null;
            Files.createDirectories(dir);
            Path target = dir.resolve(name);
            Path partial = Files.createTempFile(dir, name, ".partial");
            try {
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                // a process loading the library meanwhile sees the old file or the new one, never half of it
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(partial);
            }
            return target;
        }
    }
}
