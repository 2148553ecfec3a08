package dev.visibility.webhook.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A self-signed certificate for {@code localhost} and {@code 127.0.0.1}, made once per test JVM
 * with the JDK's {@code keytool}: the key store of the tests' HTTPS receivers, and a trust store
 * holding only its certificate, which the service's delivery client is given through
 * {@code suite.webhook.tls.trust-store} (see {@link ReceiverTlsContextCustomizerFactory}).
 */
public final class ReceiverTls {

    public static final String PASSWORD = "receiver-test-password";

    private static Path keyStore;
    private static Path trustStore;

    private ReceiverTls() {
    }

    public static synchronized Path trustStore() {
        ensure();
        return trustStore;
    }

    /** The receiver's key store (PKCS12, {@link #PASSWORD}). */
    public static synchronized Path keyStore() {
        ensure();
        return keyStore;
    }

    public static synchronized SSLContext serverContext() {
        ensure();
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, PASSWORD.toCharArray());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("Could not load the receiver's key store", e);
        }
    }

    private static void ensure() {
        if (keyStore != null) {
            return;
        }
        try {
            Path dir = Files.createTempDirectory("webhook-test-tls");
            dir.toFile().deleteOnExit();
            Path keys = dir.resolve("receiver.p12");
            String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
            Process process = new ProcessBuilder(List.of(keytool, "-genkeypair", "-alias", "receiver",
                    "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA",
                    "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "3",
                    "-storetype", "PKCS12", "-keystore", keys.toString(),
                    "-storepass", PASSWORD, "-keypass", PASSWORD))
                    .redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool failed: " + output);
            }
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(keys)) {
                store.load(in, PASSWORD.toCharArray());
            }
            Certificate certificate = store.getCertificate("receiver");
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("receiver", certificate);
            Path trusted = dir.resolve("trust.p12");
            try (OutputStream out = Files.newOutputStream(trusted)) {
                trust.store(out, PASSWORD.toCharArray());
            }
            keys.toFile().deleteOnExit();
            trusted.toFile().deleteOnExit();
            keyStore = keys;
            trustStore = trusted;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("Could not create the receiver's certificate", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
