package dev.visibility.webhook.support;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.awaitility.Awaitility;

/**
 * A real webhook receiver for tests: an HTTPS server (JDK {@code HttpsServer}, the self-signed
 * certificate of {@link ReceiverTls}) on a loopback port, that records every request it gets
 * (headers, raw body bytes, arrival time) and answers what the test asks, per request number.
 */
public final class Receiver implements AutoCloseable {

    /** One request as it arrived; header names are lower-cased. */
    public record Received(Instant at, long nanoTime, String method, String path, Map<String, List<String>> headers,
            byte[] body) {

        public String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        public List<String> headerValues(String name) {
            return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
        }
    }

    /** The answer to one request: a status, extra headers, and how long to wait before answering. */
    public record Answer(int status, Map<String, String> headers, Duration delay) {

        public static Answer of(int status) {
            return new Answer(status, Map.of(), Duration.ZERO);
        }

        public static Answer of(int status, Map<String, String> headers) {
            return new Answer(status, headers, Duration.ZERO);
        }

        public static Answer after(Duration delay, int status) {
            return new Answer(status, Map.of(), delay);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<Received> received = new ArrayList<>();
    private final AtomicInteger count = new AtomicInteger();
    private volatile IntFunction<Answer> answers = n -> Answer.of(200);

    private Receiver(HttpServer server, int threads) {
        this.server = server;
        this.executor = Executors.newFixedThreadPool(threads);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** An HTTPS receiver on 127.0.0.1; {@link #url} names it by {@code localhost}, which its certificate covers. */
    public static Receiver https() {
        return https(InetAddress.getLoopbackAddress(), 4);
    }

    public static Receiver https(InetAddress address, int threads) {
        try {
            HttpsServer server = HttpsServer.create(new InetSocketAddress(address, 0), 512);
            server.setHttpsConfigurator(new HttpsConfigurator(ReceiverTls.serverContext()));
            return new Receiver(server, threads);
        } catch (IOException e) {
            throw new IllegalStateException("Could not start a receiver", e);
        }
    }

    /** Answers request number {@code n} (1-based) with {@code answers.apply(n)}. */
    public Receiver answering(IntFunction<Answer> answers) {
        this.answers = answers;
        return this;
    }

    public Receiver answeringAlways(int status) {
        return answering(n -> Answer.of(status));
    }

    public String url(String path) {
        return "https://localhost:" + port() + path;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public synchronized List<Received> received() {
        return List.copyOf(received);
    }

    /** Waits until at least {@code n} requests arrived, or fails after {@code within}. */
    public List<Received> await(int n, Duration within) {
        return Awaitility.await(n + " requests to " + url("/")).atMost(within).pollInterval(Duration.ofMillis(20))
                .until(this::received, requests -> requests.size() >= n);
    }

    private void handle(HttpExchange exchange) throws IOException {
        long nanoTime = System.nanoTime();
        Instant at = Instant.now();
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        Map<String, List<String>> headers = new TreeMap<>();
        exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
        Received request = new Received(at, nanoTime, exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                headers, body);
        Answer answer = answers.apply(count.incrementAndGet());
        synchronized (this) {
            received.add(request);
        }
        if (!answer.delay().isZero()) {
            try {
                Thread.sleep(answer.delay().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        answer.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        exchange.sendResponseHeaders(answer.status(), -1);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
