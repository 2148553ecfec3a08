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
import java.util.UUID;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The authorization server's RS256 signing key, made on the first start and kept in
 * {@code oauth_signing_keys}, so that every replica and every restart signs with the same key and
 * publishes the same JWKS ({@code /oauth2/jwks}). One instance creates it (advisory lock).
 */
final class SigningKeys {

    private static final long LOCK_KEY = 0x6f617574686b6579L;

    private SigningKeys() {
    }

    static JWKSet load(JdbcClient jdbc, TransactionTemplate tx) {
        RSAKey key = tx.execute(status -> {
            jdbc.sql("SELECT 1 FROM (SELECT pg_advisory_xact_lock(:key)) AS locked").param("key", LOCK_KEY)
                    .query(Integer.class).single();
            return jdbc.sql("SELECT kid, private_key, public_key FROM oauth_signing_keys ORDER BY created_at DESC LIMIT 1")
                    .query((row, n) -> rsaKey(row.getString("kid"), row.getString("public_key"), row.getString("private_key")))
                    .optional()
                    .orElseGet(() -> create(jdbc));
        });
        return new JWKSet(key);
    }

    private static RSAKey create(JdbcClient jdbc) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair pair = generator.generateKeyPair();
            String kid = UUID.randomUUID().toString();
            String publicKey = Base64.getEncoder().encodeToString(pair.getPublic().getEncoded());
            String privateKey = Base64.getEncoder().encodeToString(pair.getPrivate().getEncoded());
            jdbc.sql("INSERT INTO oauth_signing_keys (kid, private_key, public_key) VALUES (:kid, :private, :public)")
                    .param("kid", kid).param("private", privateKey).param("public", publicKey)
                    .update();
            return rsaKey(kid, publicKey, privateKey);
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
