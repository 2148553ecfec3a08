package dev.visibility.auth.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;

import dev.visibility.auth.secrets.Secrets;
import dev.visibility.platform.error.InvalidParameter;
import org.junit.jupiter.api.Test;

/** Spec 5.1, 5.2, 5.5, 5.6 without a database: the key format, what is kept of it, and the scope sets. */
class ApiKeyFormatTest {

    @Test
    void keyIsPrefixLiveAnd64LowercaseHexAndOnlyItsHashAndPrefixAreKept() {
        NewApiKey key = NewApiKey.generate("svc");
        assertThat(key.key()).matches("^svc_live_[0-9a-f]{64}$");
        assertThat(key.hash()).isEqualTo(Secrets.sha256Hex(key.key())).matches("^[0-9a-f]{64}$");
        assertThat(key.visiblePrefix()).isEqualTo(key.key().substring(0, 12)).hasSize(12);
        assertThat(key.toString()).doesNotContain(key.key().substring(12));
    }

    @Test
    void everyKeyIsFreshRandomness() {
        assertThat(NewApiKey.generate("svc").key()).isNotEqualTo(NewApiKey.generate("svc").key());
    }

    @Test
    void configuredPrefixIsUsed() {
        assertThat(NewApiKey.generate(new ApiKeyProperties("acme").prefix()).key()).matches("^acme_live_[0-9a-f]{64}$");
        assertThat(new ApiKeyProperties(null).prefix()).isEqualTo("svc");
    }

    @Test
    void prefixThatCouldBreakTheFormatIsRefusedAtStartUp() {
        for (String bad : List.of("", "Svc", "svc_live", "s-v", "1abc", "abcdefghijklmnopq")) {
            assertThatThrownBy(() -> new ApiKeyProperties(bad)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void sha256IsTheLowercaseHexDigestOfTheUtf8Bytes() {
        // FIPS 180-2 test vector
        assertThat(Secrets.sha256Hex("abc")).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void catalogueIsSpec55AndDefaultsExcludeTheFourExplicitGrants() {
        assertThat(ApiKeyScopes.ALL).hasSize(19).doesNotHaveDuplicates();
        assertThat(ApiKeyScopes.DEFAULTS).hasSize(15)
                .doesNotContain("library.read", "library.write", "agents.read", "agents.run")
                .contains("visibility.read", "actions.write", "webhooks.write", "outcomes.read");
    }

    @Test
    void narrowedSetKeepsExactlyItsScopesInCatalogueOrderOnce() {
        assertThat(ApiKeyScopes.narrow(List.of("agents.run", "visibility.read", "agents.run")))
                .containsExactly("visibility.read", "agents.run");
        assertThat(ApiKeyScopes.narrow(List.of())).isEmpty();
    }

    @Test
    void unknownScopesAreAllNamed() {
        assertThatThrownBy(() -> ApiKeyScopes.narrow(List.of("visibility.read", "bogus.read", "Visibility.Read")))
                .isInstanceOfSatisfying(InvalidParameter.class, e -> {
                    assertThat(e.parameter()).isEqualTo("scopes");
                    assertThat(e.getMessage()).contains("bogus.read", "Visibility.Read").doesNotContain("unknown scopes: visibility.read");
                });
    }

    @Test
    void absurdlyLongScopeListIsRefusedWithoutEchoingIt() {
        String[] many = new String[ApiKeyScopes.MAX_REQUESTED + 1];
        Arrays.fill(many, "x");
        assertThatThrownBy(() -> ApiKeyScopes.narrow(Arrays.asList(many))).isInstanceOf(InvalidParameter.class);
    }
}
