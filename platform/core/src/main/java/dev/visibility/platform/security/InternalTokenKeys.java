package dev.visibility.platform.security;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * Reads and makes the internal token's RSA keys. A key is configured as PEM or as the base64 of
 * its DER on one line (what an environment variable holds best). Errors name the property, never
 * the key.
 */
public final class InternalTokenKeys {

    /** Least modulus accepted. */
    public static final int MIN_BITS = 2048;

    private InternalTokenKeys() {
    }

    public static RSAPrivateKey privateKey(String configured, String property) {
        byte[] der = der(configured, property);
        try {
            RSAPrivateKey key = (RSAPrivateKey) KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
            checkSize(key.getModulus().bitLength(), property);
            return key;
        } catch (GeneralSecurityException | ClassCastException e) {
            throw new IllegalStateException(property + " is not an RSA private key in PKCS#8 form", null);
        }
    }

    public static RSAPublicKey publicKey(String configured, String property) {
        byte[] der = der(configured, property);
        try {
            RSAPublicKey key = (RSAPublicKey) KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
            checkSize(key.getModulus().bitLength(), property);
            return key;
        } catch (GeneralSecurityException | ClassCastException e) {
            throw new IllegalStateException(property + " is not an RSA public key (X.509 SubjectPublicKeyInfo)", null);
        }
    }

    /** A new key pair (2048 bits): for tests, and for {@code ./suite} on first start. */
    public static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(MIN_BITS);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("RSA key generation is not available", e);
        }
    }

    /** The base64 of a key's encoded form (PKCS#8 for a private key, X.509 for a public key), on one line. */
    public static String encode(java.security.Key key) {
        return Base64.getEncoder().encodeToString(key.getEncoded());
    }

    private static byte[] der(String configured, String property) {
        if (configured == null || configured.isBlank()) {
            throw new IllegalStateException(property + " must be set");
        }
        StringBuilder base64 = new StringBuilder();
        for (String line : configured.strip().split("\\R")) {
            if (!line.startsWith("-----")) {
                base64.append(line.strip());
            }
        }
        try {
            return Base64.getMimeDecoder().decode(base64.toString());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(property + " is neither PEM nor base64", null);
        }
    }

    private static void checkSize(int bits, String property) {
        if (bits < MIN_BITS) {
            throw new IllegalStateException(property + " is an RSA key of " + bits + " bits; at least " + MIN_BITS + " are needed");
        }
    }
}
