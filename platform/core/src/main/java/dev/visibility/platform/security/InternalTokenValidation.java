package dev.visibility.platform.security;

import java.util.List;

import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtValidators;

/**
 * What every service checks on the internal token: signature (RS256, the gateway's public key), issuer,
 * audience and expiry.
 * The project claim is checked per path by the project-isolation filters; tokens without a
 * project (the account API, the gateway's own calls) can reach no project path.
 */
public final class InternalTokenValidation {

    private InternalTokenValidation() {
    }

    public static OAuth2TokenValidator<Jwt> validator(InternalTokenProperties properties) {
        OAuth2TokenValidator<Jwt> audience = new JwtClaimValidator<List<String>>(JwtClaimNames.AUD,
                aud -> aud != null && aud.contains(properties.audience()));
        return new DelegatingOAuth2TokenValidator<>(JwtValidators.createDefaultWithIssuer(properties.issuer()),
                audience);
    }
}
