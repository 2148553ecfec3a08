package dev.visibility.platform.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Set;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/**
 * Issue 15: the internal token is signed with the gateway's private key (RS256); services verify
 * it with the public key and accept nothing else: not a token of another key pair, not an HS256
 * token made with any secret (the public key included: algorithm confusion), not an unsigned one.
 */
class InternalTokenSigningTest {

    private static final KeyPair GATEWAY = InternalTokenKeys.generate();
    private static final InternalTokenProperties PROPERTIES = new InternalTokenProperties(true,
            InternalTokenKeys.encode(GATEWAY.getPrivate()), InternalTokenKeys.encode(GATEWAY.getPublic()), null, null,
            Duration.ofSeconds(60));
    private static final Caller CALLER = new Caller("acct", "7c1f0e4a-3b2d-4e5f-8a9b-0c1d2e3f4a5b", "key", null, null,
            Set.of("actions.read"), Set.of());

    private final NimbusJwtDecoder service = decoder(PROPERTIES);

    @Test
    void aTokenOfTheGatewayIsAcceptedWithItsClaims() {
        String token = new InternalTokenMinter(PROPERTIES).mint(CALLER);
        assertThat(token.split("\\.")[0]).isEqualTo(Base64.getUrlEncoder().withoutPadding()
                .encodeToString("{\"alg\":\"RS256\"}".getBytes(StandardCharsets.UTF_8)));
        Jwt jwt = service.decode(token);
        assertThat(jwt.getClaimAsString(InternalTokenClaims.PROJECT)).isEqualTo(CALLER.projectId());
        assertThat(jwt.getAudience()).containsExactly("suite-services");
    }

    /** Issue 19: the member who created the API key travels in the token; E10 checks the thread's owner against it. */
    @Test
    void theKeyCreatorTravelsInTheTokenAndIsAbsentWithoutOne() {
        Caller withCreator = new Caller("acct", CALLER.projectId(), "key", null, null, Set.of("agents.run"), Set.of(),
                "3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b");
        Jwt jwt = service.decode(new InternalTokenMinter(PROPERTIES).mint(withCreator));
        assertThat(jwt.getClaimAsString(InternalTokenClaims.KEY_CREATOR)).isEqualTo("3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b");
        assertThat(InternalTokenClaims.toCaller(jwt.getClaims())).isEqualTo(withCreator);

        Jwt without = service.decode(new InternalTokenMinter(PROPERTIES).mint(CALLER));
        assertThat(without.hasClaim(InternalTokenClaims.KEY_CREATOR)).isFalse();
        assertThat(InternalTokenClaims.toCaller(without.getClaims()).keyCreatorId()).isNull();
    }

    @Test
    void aTokenOfAnotherKeyPairIsRefused() {
        KeyPair other = InternalTokenKeys.generate();
        InternalTokenProperties forger = new InternalTokenProperties(true, InternalTokenKeys.encode(other.getPrivate()),
                InternalTokenKeys.encode(other.getPublic()), null, null, null);
        String forged = new InternalTokenMinter(forger).mint(CALLER);
        assertThatThrownBy(() -> service.decode(forged)).isInstanceOf(JwtException.class);
    }

    @Test
    void hs256TokensAreRefusedWhateverTheirSecret() throws Exception {
        for (byte[] secret : List.of("a-shared-secret-of-at-least-thirty-two-bytes".getBytes(StandardCharsets.UTF_8),
                InternalTokenKeys.encode(GATEWAY.getPublic()).getBytes(StandardCharsets.UTF_8), GATEWAY.getPublic().getEncoded())) {
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims());
            jwt.sign(new MACSigner(secret));
            assertThatThrownBy(() -> service.decode(jwt.serialize())).isInstanceOf(JwtException.class);
        }
        String unsigned = new com.nimbusds.jwt.PlainJWT(claims()).serialize();
        assertThatThrownBy(() -> service.decode(unsigned)).isInstanceOf(JwtException.class);
    }

    @Test
    void keysAreReadFromPemOrBase64AndErrorsNeverShowThem() {
        String pem = "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder().encodeToString(GATEWAY.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
        assertThat(InternalTokenKeys.publicKey(pem, "p").getModulus()).isEqualTo(PROPERTIES.verificationKey().getModulus());
        String privateKey = InternalTokenKeys.encode(GATEWAY.getPrivate());
        assertThatThrownBy(() -> InternalTokenKeys.publicKey(privateKey, "suite.internal-token.public-key"))
                .hasMessage("suite.internal-token.public-key is not an RSA public key (X.509 SubjectPublicKeyInfo)")
                .hasNoCause();
        assertThatThrownBy(() -> new InternalTokenProperties(true, null, null, null, null, null).signingKey())
                .hasMessage("suite.internal-token.private-key must be set");
    }

    private static JWTClaimsSet claims() {
        return new JWTClaimsSet.Builder().issuer("suite-gateway").audience("suite-services")
                .expirationTime(new Date(System.currentTimeMillis() + 60_000)).claim(InternalTokenClaims.PROJECT, CALLER.projectId())
                .build();
    }

    private static NimbusJwtDecoder decoder(InternalTokenProperties properties) {
        NimbusJwtDecoder decoder = NimbusJwtDecoder.withPublicKey(properties.verificationKey())
                .signatureAlgorithm(SignatureAlgorithm.RS256).build();
        decoder.setJwtValidator(InternalTokenValidation.validator(properties));
        return decoder;
    }
}
