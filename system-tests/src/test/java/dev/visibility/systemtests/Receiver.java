package dev.visibility.systemtests;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Predicate;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A webhook receiver in the test: an HTTP server on {@code 127.0.0.1} that records every request
 * (headers, raw body bytes, arrival time) and answers a settable status.
 */
public final class Receiver implements AutoCloseable {

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    /** Null: every request is kept in {@link #received}; else each goes to it and is not kept (the drills' 100,000). */
    private final Consumer<Received> sink;
    private volatile int status;

    private Receiver(int status, int threads, Consumer<Received> sink) {
        this.status = status;
        this.sink = sink;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "receiver");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    public static Receiver answering(int status) {
        return new Receiver(status, 4, null);
    }

    /**
     * A receiver answering 204 that hands each request to {@code sink} on one of {@code threads}
     * threads and keeps nothing: for loads of many thousand deliveries.
     */
    public static Receiver streaming(int threads, Consumer<Received> sink) {
        return new Receiver(204, threads, sink);
    }

    public Receiver answeringAlways(int newStatus) {
        status = newStatus;
        return this;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readAllBytes();
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name, values.get(0)));
            Received request = new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), headers, body,
                    System.nanoTime());
            if (sink == null) {
                received.add(request);
            } else {
                sink.accept(request);
            }
            int answer = status;
            exchange.sendResponseHeaders(answer, -1);
            try (OutputStream out = exchange.getResponseBody()) {
                out.flush();
            }
        }
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    /** Waits until at least {@code count} received requests match; answers all that match. */
    public List<Received> await(Predicate<Received> matching, int count, Duration within) {
        return Waits.until(count + " deliveries to " + url("/"), within,
                () -> received.stream().filter(matching).toList(), list -> list.size() >= count);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** One request as it arrived: the raw body bytes are what the signature covers (spec 6.4.1). */
    public record Received(String method, String path, Map<String, String> headers, byte[] body, long nanoTime) {

        public String header(String name) {
            return headers.get(name);
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        @SuppressWarnings("unchecked")
        public Map<String, Object> json() {
            return Kafka.JSON.readValue(body, Map.class);
        }

        @SuppressWarnings("unchecked")
        public Map<String, Object> data() {
            return (Map<String, Object>) json().get("data");
        }

        public String event() {
            return header("X-Service-Event");
        }

        /** Spec 6.4.1: HMAC-SHA256 of the raw body keyed with the secret, lowercase hex, compared in constant time. */
        public boolean verifies(String secret) {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                byte[] expected = HexFormat.of().formatHex(mac.doFinal(body)).getBytes(StandardCharsets.US_ASCII);
                String signature = header("X-Service-Signature");
                byte[] actual = signature == null ? new byte[0] : signature.getBytes(StandardCharsets.US_ASCII);
                return MessageDigest.isEqual(expected, actual);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public String toString() {
            return method + " " + path + " " + headers.get("X-Service-Event") + " " + body.length + " bytes";
        }
    }
}
