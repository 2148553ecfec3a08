import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;

/**
 * Prints a new RSA key pair for the internal token, as ./suite keeps it in .local/secrets.env:
 * {@code SUITE_INTERNAL_TOKEN_PRIVATE_KEY='<base64 PKCS#8>'} (the gateway's only) and
 * {@code SUITE_INTERNAL_TOKEN_PUBLIC_KEY='<base64 X.509>'} (every service's). JDK only:
 * {@code java local/bin/InternalTokenKeys.java}.
 */
public class InternalTokenKeys {

    public static void main(String[] args) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair pair = generator.generateKeyPair();
        Base64.Encoder base64 = Base64.getEncoder();
        System.out.println("SUITE_INTERNAL_TOKEN_PRIVATE_KEY='" + base64.encodeToString(pair.getPrivate().getEncoded()) + "'");
        System.out.println("SUITE_INTERNAL_TOKEN_PUBLIC_KEY='" + base64.encodeToString(pair.getPublic().getEncoded()) + "'");
    }
}
