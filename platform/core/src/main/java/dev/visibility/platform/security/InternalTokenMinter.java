package dev.visibility.platform.security;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.UUID;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

/** Mints the short-lived internal token (RS256, the gateway's private key) that the services accept; used by the gateway and by tests. */
public final class InternalTokenMinter {

    private final InternalTokenProperties properties;
    private final RSASSASigner signer;
    private final Clock clock;

    public InternalTokenMinter(InternalTokenProperties properties) {
        this(properties, Clock.systemUTC());
    }

    public InternalTokenMinter(InternalTokenProperties properties, Clock clock) {
        this.properties = properties;
        this.clock = clock;
        this.signer = new RSASSASigner(properties.signingKey());
    }

    public String mint(Caller caller) {
        Instant now = clock.instant();
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(properties.issuer())
                .audience(properties.audience())
                .subject(caller.keyId() != null ? caller.keyId() : caller.clientId())
                .jwtID(UUID.randomUUID().toString())
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(properties.ttl())))
                .claim(InternalTokenClaims.ACCOUNT, caller.accountId())
                .claim(InternalTokenClaims.PROJECT, caller.projectId())
                .claim(InternalTokenClaims.KEY, caller.keyId())
                .claim(InternalTokenClaims.CLIENT, caller.clientId())
                .claim(InternalTokenClaims.USER, caller.userId())
                .claim(InternalTokenClaims.SCOPES, new ArrayList<>(caller.scopes()))
                .claim(InternalTokenClaims.FEATURES, new ArrayList<>(caller.features()))
                .claim(InternalTokenClaims.KEY_CREATOR, caller.keyCreatorId());
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims.build());
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("Could not sign the internal token", e);
        }
        return jwt.serialize();
    }
}
