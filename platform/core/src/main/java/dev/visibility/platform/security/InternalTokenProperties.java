package dev.visibility.platform.security;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The internal token the gateway mints for every forwarded request (DESIGN.md, request path 5),
 * signed with RS256: only the gateway holds the private key, every service verifies with the
 * public key, so no service (and nobody who reads a service's configuration) can mint a token.
 *
 * @param enabled    whether this application verifies internal tokens (the gateway mints them instead)
 * @param privateKey the gateway's RSA private key (PKCS#8, PEM or base64 of the DER); set on the gateway only
 * @param publicKey  the matching RSA public key (X.509 SubjectPublicKeyInfo, PEM or base64 of the DER)
 * @param issuer     the {@code iss} claim
 * @param audience   the {@code aud} claim
 * @param ttl        lifetime of a minted token
 */
@ConfigurationProperties("suite.internal-token")
public record InternalTokenProperties(Boolean enabled, String privateKey, String publicKey, String issuer, String audience,
        Duration ttl) {

    public InternalTokenProperties {
        enabled = enabled == null || enabled;
        issuer = issuer == null ? "suite-gateway" : issuer;
        audience = audience == null ? "suite-services" : audience;
        ttl = ttl == null ? Duration.ofSeconds(60) : ttl;
    }

    /** The key that signs tokens; only the gateway (and tests) have it. */
    public java.security.interfaces.RSAPrivateKey signingKey() {
        return InternalTokenKeys.privateKey(privateKey, "suite.internal-token.private-key");
    }

    /** The key that verifies tokens. */
    public java.security.interfaces.RSAPublicKey verificationKey() {
        return InternalTokenKeys.publicKey(publicKey, "suite.internal-token.public-key");
    }
}
