package dev.visibility.auth.oauth;

import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The authorization server's RS256 signing key, made when it is first needed (LazyJwkSource) and kept in
 * {@code oauth_signing_keys}, so that every replica and every restart signs with the same key and
 * publishes the same JWKS ({@code /oauth2/jwks}). One instance creates it (advisory lock).
 */
final class SigningKeys {

    private static final long LOCK_KEY = 0x6f617574686b6579L;

    private SigningKeys() {
    }

    /** Making the key, on a machine that may be busy starting the whole suite: longer than a request's limit. */
    static final int START_UP_TIMEOUT_SECONDS = 90;

    static JWKSet load(JdbcClient jdbc, TransactionTemplate tx) {
        Optional<RSAKey> stored = latest(jdbc);
        if (stored.isPresent()) {
            return new JWKSet(stored.get());
        }
        // made outside the transaction (RSA key generation may take seconds on a loaded machine);
        // the first instance to commit wins, the others read its key
        Generated fresh = generate();
        TransactionTemplate startUp = new TransactionTemplate(tx.getTransactionManager(), tx);
        startUp.setTimeout(START_UP_TIMEOUT_SECONDS);
        RSAKey key = startUp.execute(status -> {
            jdbc.sql("SELECT 1 FROM (SELECT pg_advisory_xact_lock(:key)) AS locked").param("key", LOCK_KEY)
                    .query(Integer.class).single();
            return latest(jdbc).orElseGet(() -> {
                jdbc.sql("INSERT INTO oauth_signing_keys (kid, private_key, public_key) VALUES (:kid, :private, :public)")
                        .param("kid", fresh.kid()).param("private", fresh.privateKey()).param("public", fresh.publicKey())
                        .update();
                return rsaKey(fresh.kid(), fresh.publicKey(), fresh.privateKey());
            });
        });
        return new JWKSet(key);
    }

    private record Generated(String kid, String publicKey, String privateKey) {
    }

    private static Optional<RSAKey> latest(JdbcClient jdbc) {
        return jdbc.sql("SELECT kid, private_key, public_key FROM oauth_signing_keys ORDER BY created_at DESC LIMIT 1")
                .query((row, n) -> rsaKey(row.getString("kid"), row.getString("public_key"), row.getString("private_key")))
                .optional();
    }

    private static Generated generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair pair = generator.generateKeyPair();
            return new Generated(UUID.randomUUID().toString(),
                    Base64.getEncoder().encodeToString(pair.getPublic().getEncoded()),
                    Base64.getEncoder().encodeToString(pair.getPrivate().getEncoded()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("RSA is part of every JDK", e);
        }
    }

    private static RSAKey rsaKey(String kid, String publicKey, String privateKey) {
        try {
            KeyFactory factory = KeyFactory.getInstance("RSA");
            RSAPublicKey pub = (RSAPublicKey) factory.generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(publicKey)));
            RSAPrivateKey priv = (RSAPrivateKey) factory.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(privateKey)));
            return new RSAKey.Builder(pub).privateKey(priv).keyID(kid).keyUse(KeyUse.SIGNATURE)
                    .algorithm(com.nimbusds.jose.JWSAlgorithm.RS256).build();
        } catch (NoSuchAlgorithmException | InvalidKeySpecException e) {
            throw new IllegalStateException("The stored signing key is not readable", e);
        }
    }
}
