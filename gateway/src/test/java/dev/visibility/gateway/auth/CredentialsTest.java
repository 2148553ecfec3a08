package dev.visibility.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Spec 5.1: keys are {@code <prefix>_live_<64 hex>}; spec 5.2: looked up by SHA-256. */
class CredentialsTest {

    private final Credentials credentials = new Credentials("svc");

    @Test
    void acceptsOnlyWellFormedKeysOfTheConfiguredPrefix() {
        String hex = "0123456789abcdef".repeat(4);
        assertThat(credentials.isApiKey("svc_live_" + hex)).isTrue();
        assertThat(credentials.isApiKey("svc_live_" + hex.toUpperCase())).isFalse();
        assertThat(credentials.isApiKey("svc_live_" + hex.substring(1))).isFalse();
        assertThat(credentials.isApiKey("svc_test_" + hex)).isFalse();
        assertThat(credentials.isApiKey("abc_live_" + hex)).isFalse();
        assertThat(new Credentials("abc").isApiKey("abc_live_" + hex)).isTrue();
        assertThat(credentials.isApiKey("svc_live_" + hex + "\n")).isFalse();
        assertThat(credentials.isApiKey("svc_live_" + hex.substring(1) + "g")).isFalse();
        assertThat(credentials.isApiKey("svc_live_" + hex.substring(1) + "\u0660")).isFalse();
        assertThat(credentials.isApiKey("xsvc_live_" + hex.substring(1))).isFalse();
    }

    @Test
    void acceptsOnlyWellFormedMemberTokens() {
        String hex = "fedcba9876543210".repeat(4);
        assertThat(Credentials.isMemberToken("mat_" + hex)).isTrue();
        assertThat(Credentials.isMemberToken("mat_" + hex.toUpperCase())).isFalse();
        assertThat(Credentials.isMemberToken("mat_" + hex + "0")).isFalse();
        assertThat(Credentials.isMemberToken("mat_" + hex.substring(1))).isFalse();
        assertThat(Credentials.isMemberToken("svc_live_" + hex)).isFalse();
    }

    @Test
    void readsOnlyBearerHeaders() {
        assertThat(Credentials.bearer("Bearer abc")).isEqualTo("abc");
        assertThat(Credentials.bearer("bearer abc")).isEqualTo("abc");
        assertThat(Credentials.bearer("Basic abc")).isNull();
        assertThat(Credentials.bearer("Bearer ")).isNull();
        assertThat(Credentials.bearer(null)).isNull();
    }

    @Test
    void hashesWithSha256InLowercaseHex() {
        assertThat(Credentials.sha256Hex("abc")).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        // the digest is cloned per call: no state carries over from one hash to the next
        assertThat(Credentials.sha256Hex("abc")).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(Credentials.sha256Hex("")).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }
}
