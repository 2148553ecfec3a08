package dev.visibility.webhook.delivery;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

import dev.visibility.webhook.config.WebhookProperties;

/**
 * The certificates the delivery client trusts: the JDK's roots, plus those of an optional
 * PKCS12 trust store ({@code suite.webhook.tls.trust-store}: a private CA, or the tests' receiver).
 * Host names are verified by the client in every case.
 */
final class DeliveryTrust {

    private DeliveryTrust() {
    }

    static X509ExtendedTrustManager trustManager(WebhookProperties.Tls tls) {
        try {
            X509ExtendedTrustManager jdk = fromKeyStore(null);
            if (tls.trustStore() == null || tls.trustStore().isBlank()) {
                return jdk;
            }
            KeyStore extra = KeyStore.getInstance("PKCS12");
            char[] password = tls.trustStorePassword() == null ? new char[0] : tls.trustStorePassword().toCharArray();
            try (InputStream in = Files.newInputStream(Path.of(tls.trustStore()))) {
                extra.load(in, password);
            }
            return new Either(jdk, fromKeyStore(extra));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("Could not load suite.webhook.tls.trust-store: " + e.getClass().getSimpleName(), e);
        }
    }

    private static X509ExtendedTrustManager fromKeyStore(KeyStore store) throws GeneralSecurityException {
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        for (TrustManager manager : factory.getTrustManagers()) {
            if (manager instanceof X509ExtendedTrustManager x509) {
                return x509;
            }
        }
        throw new IllegalStateException("The JDK has no X.509 trust manager");
    }

    /** Trusts a chain when either delegate does; each delegate also checks the host name. */
    private static final class Either extends X509ExtendedTrustManager {

        private final X509ExtendedTrustManager first;
        private final X509ExtendedTrustManager second;

        Either(X509ExtendedTrustManager first, X509ExtendedTrustManager second) {
            this.first = first;
            this.second = second;
        }

        private interface Check {
            void run(X509ExtendedTrustManager manager) throws CertificateException;
        }

        private void either(Check check) throws CertificateException {
            try {
                check.run(first);
            } catch (CertificateException e) {
                try {
                    check.run(second);
                } catch (CertificateException ignored) {
                    throw e;
                }
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            either(m -> m.checkServerTrusted(chain, authType, engine));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            either(m -> m.checkServerTrusted(chain, authType, socket));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            either(m -> m.checkServerTrusted(chain, authType));
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            throw new CertificateException("The delivery client accepts no client certificates");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            throw new CertificateException("The delivery client accepts no client certificates");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("The delivery client accepts no client certificates");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            List<X509Certificate> all = new ArrayList<>(List.of(first.getAcceptedIssuers()));
            all.addAll(List.of(second.getAcceptedIssuers()));
            return all.toArray(X509Certificate[]::new);
        }
    }
}
