package dev.modelgateway.server;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The version the build reports ({@code --version}, {@code /health}) is the one the root pom declares (docs/release.md). */
class VersionTest {

    @Test
    void theBuildReportsThePomsVersion() throws Exception {
        Path pom = Path.of(System.getProperty("fixtures.dir"), "..", "pom.xml");
        Matcher project = Pattern.compile("(?m)^  <version>([^<]+)</version>$").matcher(Files.readString(pom));
        assertThat(project.find()).as("the root pom's project version").isTrue();
        assertThat(Version.current()).isEqualTo(project.group(1)).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
    }
}
