package dev.visibility.webhook.bench;

import java.io.InputStream;
import java.nio.file.Files;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.KeyManagerFactory;

import dev.visibility.webhook.support.ReceiverTls;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * The benchmark's receivers: HTTPS servers on loopback (Reactor Netty, on event loops of their
 * own, the tests' self-signed certificate) that answer 200 and keep each request's arrival time,
 * path, signature header and body. One server per port; webhooks are spread over them.
 */
final class NettyReceiver implements AutoCloseable {

    record Received(long nanoTime, String path, String signature, byte[] body) {
    }

    private final LoopResources loops = LoopResources.create("bench-receiver", 2, true);
    private final List<DisposableServer> servers = new ArrayList<>();
    private final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();
    private final AtomicInteger count = new AtomicInteger();

    NettyReceiver(int ports) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(ReceiverTls.keyStore())) {
            store.load(in, ReceiverTls.PASSWORD.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, ReceiverTls.PASSWORD.toCharArray());
        for (int i = 0; i < ports; i++) {
            servers.add(HttpServer.create()
                    .host("127.0.0.1")
                    .port(0)
                    .runOn(loops)
                    .secure(spec -> spec.sslContext(Http11SslContextSpec.forServer(keys)))
                    .handle((request, response) -> request.receive().aggregate().asByteArray()
                            .defaultIfEmpty(new byte[0])
                            .flatMap(body -> {
                                received.add(new Received(System.nanoTime(), request.uri(),
                                        request.requestHeaders().get("X-Service-Signature"), body));
                                count.incrementAndGet();
                                return Mono.from(response.status(200).send());
                            }))
                    .bindNow());
        }
    }

    String url(int index, String path) {
        return "https://localhost:" + servers.get(index % servers.size()).port() + path;
    }

    int count() {
        return count.get();
    }

    /** Everything received so far, in arrival order. */
    List<Received> received() {
        return new ArrayList<>(received);
    }

    /** Waits until at least {@code n} requests arrived. */
    void await(int n, long timeoutMillis) throws InterruptedException {
        try {
            Awaitility.await().atMost(Duration.ofMillis(timeoutMillis)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5))
                    .until(() -> count.get() >= n);
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("Only " + count.get() + " of " + n + " deliveries arrived", e);
        }
    }

    @Override
    public void close() {
        servers.forEach(DisposableServer::disposeNow);
        loops.dispose();
    }
}
