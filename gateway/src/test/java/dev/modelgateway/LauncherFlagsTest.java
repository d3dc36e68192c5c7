package dev.modelgateway;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The launcher's JVM flags keep the JVM's own output off stdout: {@code ./gw keys} prints its results there (a
 * script reads them), and every run printed {@code 2 compiler directives added} first, because of
 * {@code -XX:CompilerDirectivesFile}. The flags are taken from {@code gw} as the shell sets them and run by bash.
 */
class LauncherFlagsTest {

    @Test
    void theJvmsOwnOutputStaysOffStdout() throws Exception {
        Path root = Path.of(System.getProperty("fixtures.dir"), "..").toAbsolutePath().normalize();
        String flags = Files.readAllLines(root.resolve("gw")).stream().filter(l -> l.startsWith("JVM_FLAGS="))
                .collect(Collectors.joining("\n"));
        assertThat(flags).contains("-XX:CompilerDirectivesFile");
        String script = "set -eu\nROOT='" + root + "'\n" + flags + "\nexec \"$JAVA\" $JVM_FLAGS -version\n";
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script);
        pb.environment().put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process java = pb.start();
        String stdout = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String stderr = new String(java.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(java.exitValue()).as(stderr).isZero();
        assertThat(stderr).as("the directives were read").contains("compiler directives added");
        assertThat(stdout).as("stdout is the command's alone").isEmpty();
    }
}
