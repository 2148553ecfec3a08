package dev.visibility.platform.security.reactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.visibility.platform.security.Caller;
import dev.visibility.platform.security.InternalTokenKeys;
import dev.visibility.platform.security.InternalTokenMinter;
import dev.visibility.platform.security.InternalTokenProperties;
import dev.visibility.platform.security.InternalTokenValidation;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;

/** A remembered internal token skips the signature check, never the claims (DESIGN.md, request path 5). */
class VerifiedTokenCacheTest {

    private static final java.security.KeyPair KEYS = InternalTokenKeys.generate();
    private static final InternalTokenProperties PROPERTIES = new InternalTokenProperties(true,
            InternalTokenKeys.encode(KEYS.getPrivate()), InternalTokenKeys.encode(KEYS.getPublic()), null, null, Duration.ofSeconds(60));
    private static final Instant START = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    private static final Caller CALLER = new Caller("acct", "7c1f0e4a-3b2d-4e5f-8a9b-0c1d2e3f4a5b", "key", null, null,
            Set.of("actions.read"), Set.of());

    private final AtomicReference<Instant> now = new AtomicReference<>(START);
    private final AtomicInteger verifications = new AtomicInteger();
    private final VerifiedTokenCache cache;

    VerifiedTokenCacheTest() {
        Clock clock = new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now.get();
            }
        };
        JwtTimestampValidator timestamps = new JwtTimestampValidator(Duration.ZERO);
        timestamps.setClock(clock);
        OAuth2TokenValidator<Jwt> validator = new DelegatingOAuth2TokenValidator<>(timestamps,
                InternalTokenValidation.validator(PROPERTIES));
        NimbusReactiveJwtDecoder nimbus = NimbusReactiveJwtDecoder.withPublicKey(PROPERTIES.verificationKey())
                .signatureAlgorithm(SignatureAlgorithm.RS256).build();
        nimbus.setJwtValidator(validator);
        ReactiveJwtDecoder counting = token -> {
            verifications.incrementAndGet();
            return nimbus.decode(token);
        };
        cache = new VerifiedTokenCache(counting, validator, Duration.ofMinutes(5), 100);
    }

    private String mint() {
        Clock at = Clock.fixed(now.get(), ZoneOffset.UTC);
        return new InternalTokenMinter(PROPERTIES, at).mint(CALLER);
    }

    @Test
    void aTokenIsVerifiedOnceAndAnsweredWithTheSameClaims() {
        String token = mint();
        Jwt first = cache.decode(token).block();
        Jwt second = cache.decode(token).block();
        assertThat(verifications).hasValue(1);
        assertThat(second.getClaims()).isEqualTo(first.getClaims());
        assertThat(second.getClaimAsString("proj")).isEqualTo(CALLER.projectId());
    }

    @Test
    void aRememberedTokenIsRefusedOnceItExpires() {
        String token = mint();
        cache.decode(token).block();
        now.set(START.plusSeconds(61));
        assertThatThrownBy(() -> cache.decode(token).block()).isInstanceOf(JwtValidationException.class);
        assertThat(verifications).hasValue(1);
    }

    @Test
    void aTokenWithAnotherSignatureIsVerifiedAnewAndRefused() {
        String token = mint();
        cache.decode(token).block();
        String tampered = token.substring(0, token.lastIndexOf('.') + 1) + "AAAA" + token.substring(token.lastIndexOf('.') + 5);
        assertThatThrownBy(() -> cache.decode(tampered).block()).isInstanceOf(BadJwtException.class);
        assertThat(verifications).hasValue(2);
        // and the refused one is not remembered either
        assertThatThrownBy(() -> cache.decode(tampered).block()).isInstanceOf(BadJwtException.class);
        assertThat(verifications).hasValue(3);
    }
}
