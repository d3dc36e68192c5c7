package dev.modelgateway;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.util.LibraryLoaderUtil;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code train}, which ./gw runs to build the start-up cache: it must pass, or the launcher starts without one. */
class TrainingTest {
    @TempDir
    Path dir;

    @Test
    void everyProtocolIsAnsweredAndSqlitesLibraryIsExported() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = Training.run(new String[]{"--export-sqlite-library", dir.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8);

        assertThat(status).as(printed).isZero();
        int requests = Training.ROUNDS * (Training.probes().size() + 1) + 1; // + a stored key's chat per round, + creating it
        assertThat(printed).contains(requests + " of " + requests + " requests answered as expected");
        // where -Dorg.sqlite.lib.path will point, under the name sqlite-jdbc loads
        try (InputStream inJar = LibraryLoaderUtil.class.getResourceAsStream(
                LibraryLoaderUtil.getNativeLibResourcePath() + "/" + LibraryLoaderUtil.getNativeLibName())) {
            assertThat(dir.resolve(LibraryLoaderUtil.getNativeLibName())).hasBinaryContent(inJar.readAllBytes());
        }
    }

    @Test
    void anUnknownOptionIsRefused() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(Training.run(new String[]{"--bogus"}, new PrintStream(out, true, StandardCharsets.UTF_8))).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("unknown option '--bogus'");
    }
}
