package dev.modelgateway.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/configuration.md's reference is the table's: a setting added, renamed or re-documented without it fails here. */
class SettingsReferenceTest {
    @Test
    void theCommittedReferenceIsTheDeclaredTable() throws Exception {
        Path doc = Path.of("../docs/configuration.md");
        String text = Files.readString(doc);
        assertThat(SettingsReference.replaced(text))
                .as("docs/configuration.md's settings reference is stale: regenerate it from the repository's root with"
                        + " `mvn -o -q -pl gateway compile && " + SettingsReference.REGENERATE + "`")
                .isEqualTo(text);
    }

    @Test
    void everySettingIsDocumentedOnceWithItsVariable() {
        String md = SettingsReference.markdown();
        for (Setting s : Settings.ALL) {
            assertThat(s.doc()).as(s.name()).isNotBlank();
            if (s.inFile()) assertThat(md).contains("| `" + s.path() + "`");
            if (s.env() != null) assertThat(md).contains("`" + s.env() + "`");
        }
        assertThat(md).contains("`GATEWAY_SERVER_PORT`<br>deprecated: `GATEWAY_PORT`");
    }
}
