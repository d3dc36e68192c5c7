package dev.modelgateway.credentials.aws;

import dev.modelgateway.config.AwsCredentialsSettings;
import dev.modelgateway.config.AwsCredentialsSettings.AssumeRole;
import dev.modelgateway.config.AwsCredentialsSettings.Source;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AwsCredentialsSettingsTest {
    private static final String AT = "providers.aws-east.aws";
    private static final String ROLE = "arn:aws:iam::123456789012:role/gateway";

    private static Map<String, Object> yaml(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    private static AwsCredentialsSettings parse(Object... kv) {
        return AwsCredentialsSettings.parse(AT, yaml(kv));
    }

    @Test
    void staticKeysWithAChainOfRolesAreReadInOrder() {
        AwsCredentialsSettings s = parse("source", "static", "access_key_id", "AKIAGATEWAYEXAMPLE1", "secret_access_key", "s3cr3t",
                "session_token", "tok", "sts_endpoint", "http://127.0.0.1:9090/", "region", "eu-west-1",
                "assume_role", List.of(yaml("role_arn", ROLE, "external_id", "ext-123", "duration_seconds", 900),
                        yaml("role_arn", "arn:aws-cn:iam::210987654321:role/path/to/deep", "session_name", "gw-2", "duration_seconds", "3600")));
        assertThat(s.source()).isEqualTo(Source.STATIC);
        assertThat(s.sessionToken()).isEqualTo("tok");
        assertThat(s.stsEndpoint()).isEqualTo("http://127.0.0.1:9090");
        assertThat(s.region()).isEqualTo("eu-west-1");
        assertThat(s.assumeRole()).containsExactly(new AssumeRole(ROLE, "ext-123", null, 900),
                new AssumeRole("arn:aws-cn:iam::210987654321:role/path/to/deep", null, "gw-2", 3600));
    }

    @Test
    void theSourceIsStaticWhenKeysAreGivenAndTheDefaultChainOtherwise() {
        assertThat(parse("access_key_id", "AKIA1", "secret_access_key", "x").source()).isEqualTo(Source.STATIC);
        assertThat(parse().source()).isEqualTo(Source.DEFAULT);
        assertThat(parse("source", "web_identity").source()).isEqualTo(Source.WEB_IDENTITY);
    }

    @Test
    void anUnknownKeyIsRefusedWithTheNearestName() {
        assertThatThrownBy(() -> parse("access_key_id", "AKIA1", "secret_acess_key", "x"))
                .hasMessage(AT + ".secret_acess_key: unknown setting; did you mean `secret_access_key`?");
        assertThatThrownBy(() -> parse("source", "static", "access_key_id", "AKIA1", "secret_access_key", "x",
                "assume_role", List.of(yaml("role_arn", ROLE, "externalid", "e1"))))
                .hasMessage(AT + ".assume_role[0].externalid: unknown setting; did you mean `external_id`?");
    }

    @Test
    void staticNeedsBothKeys() {
        assertThatThrownBy(() -> parse("source", "static", "access_key_id", "AKIA1"))
                .hasMessageContaining(AT + ": source static needs both access_key_id and secret_access_key");
        assertThatThrownBy(() -> parse("secret_access_key", "x")).hasMessageContaining("needs both");
    }

    @Test
    void aKeyOfAnotherSourceIsRefusedNamingTheSourceItBelongsTo() {
        assertThatThrownBy(() -> parse("source", "instance", "access_key_id", "AKIA1"))
                .hasMessage(AT + ".access_key_id applies to source static only");
        assertThatThrownBy(() -> parse("source", "container", "imds_endpoint", "http://127.0.0.1:1"))
                .hasMessage(AT + ".imds_endpoint applies to source instance only");
        assertThatThrownBy(() -> parse("source", "default", "role_arn", ROLE)).hasMessageStartingWith(AT + ".role_arn applies to source web_identity");
        assertThatThrownBy(() -> parse("source", "instance", "sts_endpoint", "http://127.0.0.1:1"))
                .hasMessageStartingWith(AT + ".sts_endpoint: STS is called only");
    }

    @Test
    void roleArnsMustBeIamRoles() {
        for (String bad : List.of("arn:aws:iam::12345678901:role/x", "arn:aws:iam::123456789012:user/x", "arn:aws:sts::123456789012:role/x",
                "arn:aws-eu:iam::123456789012:role/x", "gateway")) {
            assertThatThrownBy(() -> parse("assume_role", List.of(yaml("role_arn", bad))))
                    .as(bad).hasMessageStartingWith(AT + ".assume_role[0].role_arn must be an IAM role ARN");
        }
        assertThatThrownBy(() -> parse("source", "web_identity", "role_arn", "arn:aws:iam::1:role/x"))
                .hasMessageStartingWith(AT + ".role_arn must be an IAM role ARN");
        assertThat(parse("source", "web_identity", "role_arn", "arn:aws-us-gov:iam::123456789012:role/irsa").roleArn())
                .isEqualTo("arn:aws-us-gov:iam::123456789012:role/irsa");
    }

    @Test
    void stsLimitsAreCheckedHere() {
        assertThatThrownBy(() -> parse("assume_role", List.of(yaml("role_arn", ROLE, "duration_seconds", 600))))
                .hasMessage(AT + ".assume_role[0].duration_seconds must be between 900 and 43200 (STS's limits), got 600");
        assertThatThrownBy(() -> parse("assume_role", List.of(yaml("role_arn", ROLE, "external_id", "x"))))
                .hasMessageStartingWith(AT + ".assume_role[0].external_id must be 2 to 1224");
        assertThatThrownBy(() -> parse("assume_role", List.of(yaml("role_arn", ROLE, "session_name", "has space"))))
                .hasMessageStartingWith(AT + ".assume_role[0].session_name must be");
        assertThatThrownBy(() -> parse("assume_role", yaml("role_arn", ROLE))).hasMessageStartingWith(AT + ".assume_role must be a list");
        assertThatThrownBy(() -> parse("assume_role", List.of(yaml("external_id", "ext-1"))))
                .hasMessage(AT + ".assume_role[0].role_arn is required");
        assertThatThrownBy(() -> parse("region", "US East")).hasMessageStartingWith(AT + ".region must be an AWS region");
        assertThatThrownBy(() -> parse("source", "instance", "imds_endpoint", "169.254.169.254"))
                .hasMessageStartingWith(AT + ".imds_endpoint must be an http(s) URL");
        assertThatThrownBy(() -> parse("assume_role", List.of(yaml("role_arn", ROLE)), "sts_endpoint", "http://127.0.0.1:9090/sts"))
                .hasMessageStartingWith(AT + ".sts_endpoint must have no path");
        assertThatThrownBy(() -> parse("source", "keys")).hasMessageStartingWith(AT + ".source must be one of");
    }

    @Test
    void neitherDescribeNorToStringShowsASecretOrAnExternalId() {
        AwsCredentialsSettings s = parse("access_key_id", "AKIAGATEWAYEXAMPLE1", "secret_access_key", "wJalrXUtnFEMI-secret",
                "session_token", "FwoGZXIvYXdzE-token", "assume_role", List.of(yaml("role_arn", ROLE, "external_id", "ext-secretish")));
        assertThat(s.describe()).isEqualTo("AWS static credentials AKIAGATEWAYEXAMPLE1 → " + ROLE + " (external id)");
        assertThat(s + s.describe()).doesNotContain("wJalrXUtnFEMI-secret", "FwoGZXIvYXdzE-token", "ext-secretish");
    }

    @Test
    void equalBlocksAreOneIdentityAndTheProvidersRegionFillsAnAbsentOne() {
        Object[] block = {"access_key_id", "AKIA1", "secret_access_key", "x", "assume_role", List.of(yaml("role_arn", ROLE))};
        assertThat(parse(block)).isEqualTo(parse(block)).hasSameHashCodeAs(parse(block));
        assertThat(parse(block).withRegion("us-west-2").region()).isEqualTo("us-west-2");
        assertThat(parse("region", "eu-central-1").withRegion("us-west-2").region()).isEqualTo("eu-central-1");
    }

    @Test
    void anApiKeyIsABearerTokenAndExcludesAnAwsBlock() {
        assertThat(AwsAuth.choose("providers.b", "ABSKkey", null)).isInstanceOfSatisfying(AwsAuth.ApiKey.class,
                k -> assertThat(k.authorization()).isEqualTo("Bearer ABSKkey"));
        AwsCredentialsSettings aws = parse("source", "instance");
        assertThat(AwsAuth.choose("providers.b", null, aws)).isEqualTo(new AwsAuth.SigV4(aws));
        assertThat(AwsAuth.choose("providers.b", null, null)).isInstanceOfSatisfying(AwsAuth.SigV4.class,
                v -> assertThat(v.credentials().source()).isEqualTo(Source.DEFAULT));
        assertThatThrownBy(() -> AwsAuth.choose("providers.b", "ABSKkey", aws))
                .hasMessageStartingWith("providers.b: api_key and aws are exclusive");
        assertThat(AwsAuth.choose("providers.b", "ABSKkey", null).toString()).doesNotContain("ABSKkey");
    }
}
