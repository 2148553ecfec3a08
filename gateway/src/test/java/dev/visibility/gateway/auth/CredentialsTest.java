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
    }
}
