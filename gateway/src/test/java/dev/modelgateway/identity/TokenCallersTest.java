package dev.modelgateway.identity;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The parts of a token caller's admission that read claims alone: its scopes and the name of its user. */
class TokenCallersTest {

    @Test
    void scopesComeFromTheSpaceSeparatedScopeOrAnScpList() {
        assertThat(TokenCallers.scopes(new Claims("corp", Map.of("scope", " openid  llm.call email ")))).containsExactlyInAnyOrder(
                "openid", "llm.call", "email");
        assertThat(TokenCallers.scopes(new Claims("entra", Map.of("scp", List.of("llm.call", "user.read"))))).containsExactlyInAnyOrder(
                "llm.call", "user.read");
        assertThat(TokenCallers.scopes(new Claims("entra", Map.of("scp", "llm.call")))).containsExactly("llm.call");
        assertThat(TokenCallers.scopes(new Claims("k8s", Map.of("sub", "system:serviceaccount:ml:trainer")))).isEmpty();
    }

    @Test
    void aUserIsNamedByItsIssuerAndSubjectAndAnOverlongSubjectByItsHash() {
        assertThat(TokenCallers.userName("k8s", "system:serviceaccount:ml:trainer")).isEqualTo("k8s:system:serviceaccount:ml:trainer");
        String hashed = TokenCallers.userName("corp", "x".repeat(400));
        assertThat(hashed).startsWith("corp:sha256:").hasSize("corp:sha256:".length() + 64);
        assertThat(TokenCallers.userName("corp", "y".repeat(400))).isNotEqualTo(hashed);
    }
}
