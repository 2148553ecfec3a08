package dev.visibility.platform.security.reactive;

import dev.visibility.platform.error.Unauthorized;
import dev.visibility.platform.security.Caller;
import dev.visibility.platform.security.InternalTokenClaims;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import reactor.core.publisher.Mono;

/** The caller of the current reactive request, from its verified internal token. */
public final class CurrentCaller {

    private CurrentCaller() {
    }

    public static Mono<Caller> get() {
        return ReactiveSecurityContextHolder.getContext()
                .mapNotNull(context -> context.getAuthentication())
                .filter(JwtAuthenticationToken.class::isInstance)
                .map(auth -> InternalTokenClaims.toCaller(((JwtAuthenticationToken) auth).getToken().getClaims()))
                .switchIfEmpty(Mono.error(Unauthorized::new));
    }
}
