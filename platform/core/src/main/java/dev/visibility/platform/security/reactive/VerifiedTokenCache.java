package dev.visibility.platform.security.reactive;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;
import reactor.core.publisher.Mono;

/**
 * Remembers internal tokens whose signature was verified, so that the gateway's token, reused for
 * the first half of its life on every request of a key, is parsed and verified once instead of on
 * every call. The key is the whole token, signature included: a token that differs in any byte is
 * verified anew. The claims (expiry, issuer, audience) are validated on every use, cached or not,
 * so a remembered token is refused the moment it expires.
 */
final class VerifiedTokenCache implements ReactiveJwtDecoder {

    private final ReactiveJwtDecoder verifier;
    private final OAuth2TokenValidator<Jwt> validator;
    private final Cache<String, Jwt> verified;

    VerifiedTokenCache(ReactiveJwtDecoder verifier, OAuth2TokenValidator<Jwt> validator, Duration keepFor, long maximumSize) {
        this.verifier = verifier;
        this.validator = validator;
        this.verified = Caffeine.newBuilder().expireAfterWrite(keepFor).maximumSize(maximumSize).build();
    }

    @Override
    public Mono<Jwt> decode(String token) {
        Jwt known = verified.getIfPresent(token);
        if (known == null) {
            return verifier.decode(token).doOnNext(jwt -> verified.put(token, jwt));
        }
        OAuth2TokenValidatorResult result = validator.validate(known);
        if (result.hasErrors()) {
            verified.invalidate(token);
            return Mono.error(new JwtValidationException("The internal token is not valid", result.getErrors()));
        }
        return Mono.just(known);
    }
}
