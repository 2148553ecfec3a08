package dev.visibility.systemtests;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.List;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;

/**
 * Access tokens as auth-service's authorization server issues them (DESIGN.md "MCP and OAuth": RS256
 * JWTs with {@code sub}, {@code client_id}, {@code project_id}, {@code capabilities}, {@code aud} the
 * MCP resource URL), signed with a key made by the test, whose JWKS the test serves.
 */
final class OAuthTokens {

    private OAuthTokens() {
    }

    static RSAKey key(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A token valid for five minutes; {@code clientId} null leaves the client id claim out. */
    static String sign(RSAKey key, String issuer, String audience, String clientId, String projectId, String member,
            List<String> capabilities) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(issuer).subject(member).audience(audience)
                .issueTime(new Date()).expirationTime(Date.from(Instant.now().plusSeconds(300)))
                .claim("project_id", projectId).claim("capabilities", capabilities);
        if (clientId != null) {
            claims.claim("client_id", clientId);
        }
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims.build());
            jwt.sign(new RSASSASigner(key));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Serves {@code /oauth2/jwks} with the key's public half on a loopback port. */
    static HttpServer serveJwks(RSAKey key) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            byte[] body = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
            server.createContext("/oauth2/jwks", exchange -> {
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
