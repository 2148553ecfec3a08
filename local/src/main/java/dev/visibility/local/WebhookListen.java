package dev.visibility.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * {@code ./suite webhooks listen}: what {@code stripe listen} is for Stripe users. A receiver on
 * 127.0.0.1 (a free port) is subscribed through the gateway with the demo key (spec E13); every
 * delivery is answered 200 at once and printed on one line (time, event, delivery id, whether the
 * signature verifies with the subscription's secret, spec 6.4.1), then forwarded with the same
 * bytes and headers when {@code --forward-to} is given. The secret stays in memory: it is never
 * printed or written. On Ctrl-C or SIGTERM the subscription is deleted (spec E15).
 */
final class WebhookListen {

    static final String PATH = "/webhook";
    static final Duration FORWARD_TIMEOUT = Duration.ofSeconds(10);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
    /** The delivery headers of spec 6.3 and DESIGN.md, passed on as they came. */
    private static final List<String> FORWARDED_HEADERS = List.of("Content-Type", "X-Service-Signature", "X-Service-Event",
            "X-Service-Delivery", "X-Service-Redelivery-Of", "User-Agent");

    private final SuiteLocation suite;
    private final PrintStream out;
    private final ExecutorService receiving = Executors.newSingleThreadExecutor(daemon("webhook-receiver"));
    private final ExecutorService forwarding = Executors.newSingleThreadExecutor(daemon("webhook-forwarder"));
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(FORWARD_TIMEOUT).build();
    private volatile String secret;
    private volatile String webhookId;
    /** Open once the subscription's answer (with the secret) is in: a delivery may overtake it. */
    private final java.util.concurrent.CountDownLatch subscribed = new java.util.concurrent.CountDownLatch(1);

    WebhookListen(SuiteLocation suite, PrintStream out) {
        this.suite = suite;
        this.out = out;
    }

    /** Subscribes and starts receiving; returns while the receiver keeps running (the caller waits for a signal). */
    void start(SuiteCli.Options options) {
        List<String> events = events(options.get("--events"));
        URI forwardTo = forwardTo(options.get("--forward-to"));
        String projectId = suite.credential("projectId");
        GatewayClient gateway = new GatewayClient(suite.gatewayUrl(), suite.credential("apiKey"));

        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        } catch (IOException e) {
            throw new CliException(1, "cannot open a port on 127.0.0.1: " + e.getMessage());
        }
        server.setExecutor(receiving);
        server.createContext(PATH, exchange -> receive(exchange, forwardTo));
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort() + PATH;

        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(gateway, projectId, server), "webhook-unsubscribe"));
        GatewayClient.Subscription subscription;
        try {
            subscription = gateway.subscribe(projectId, url, events);
        } catch (CliException e) {
            server.stop(0);
            throw e;
        }
        secret = subscription.secret();
        webhookId = subscription.id();
        subscribed.countDown();
        out.println("Ready: listening on " + url + " as webhook " + subscription.id() + " of project " + projectId);
        out.println("  events: " + String.join(", ", events));
        if (forwardTo != null) {
            out.println("  forwarding every delivery to " + forwardTo);
        }
        out.println("  try ./suite simulate tracking-run or ./suite simulate recommendation in another terminal;"
                + " Ctrl-C stops and deletes the webhook");
    }

    private void receive(HttpExchange exchange, URI forwardTo) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().add("Allow", "POST");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            // answered first: the sender's time-out does not include our printing or forwarding
            exchange.sendResponseHeaders(200, -1);
            try {
                subscribed.await(GatewayClient.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            String event = header(exchange, "X-Service-Event");
            String delivery = header(exchange, "X-Service-Delivery");
            boolean verified = Signature.verifies(secret, body, header(exchange, "X-Service-Signature"));
            out.printf("%s  %-29s  delivery %s  %s%s%n", LocalTime.now().truncatedTo(ChronoUnit.MILLIS).format(TIME),
                    event == null ? "(no X-Service-Event)" : event, delivery == null ? "(none)" : delivery,
                    verified ? "signature verified" : "signature INVALID", summary(body));
            if (forwardTo != null) {
                List<String[]> headers = new ArrayList<>();
                for (String name : FORWARDED_HEADERS) {
                    String value = header(exchange, name);
                    if (value != null) {
                        headers.add(new String[] {name, value});
                    }
                }
                forwarding.execute(() -> forward(forwardTo, body, headers, delivery));
            }
        }
    }

    private void forward(URI target, byte[] body, List<String[]> headers, String delivery) {
        HttpRequest.Builder request = HttpRequest.newBuilder(target).timeout(FORWARD_TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        for (String[] header : headers) {
            request.header(header[0], header[1]);
        }
        try {
            HttpResponse<Void> response = http.send(request.build(), HttpResponse.BodyHandlers.discarding());
            out.printf("  -> forwarded delivery %s to %s: %d%n", delivery, target, response.statusCode());
        } catch (IOException e) {
            out.printf("  -> forwarding delivery %s to %s failed: %s%n", delivery, target, e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void stop(GatewayClient gateway, String projectId, HttpServer server) {
        String id = webhookId;
        if (id != null) {
            try {
                gateway.unsubscribe(projectId, id);
                out.println("webhook " + id + " deleted; no more deliveries to this listener");
            } catch (CliException e) {
                System.err.println("could not delete webhook " + id + ": " + e.getMessage()
                        + " (DELETE /api/v2/projects/" + projectId + "/webhooks/" + id + " removes it)");
            }
        }
        server.stop(0);
        forwarding.shutdown();
        try {
            forwarding.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A few fields of the envelope (spec 6.2) after the delivery line, so that a run or an action can be recognised. */
    static String summary(byte[] body) {
        JsonNode data;
        try {
            data = SuiteLocation.JSON.readTree(body).path("data");
        } catch (JacksonException e) {
            return "  (body is not JSON)";
        }
        StringBuilder s = new StringBuilder();
        if (data.path("runId").isString()) {
            s.append("  runId=").append(data.path("runId").asString());
        }
        if (data.path("finalStatus").isString()) {
            s.append(" finalStatus=").append(data.path("finalStatus").asString());
        }
        if (data.path("metrics").path("visibilityScore").isNumber()) {
            s.append(" visibilityScore=").append(data.path("metrics").path("visibilityScore").asDouble());
        }
        if (data.path("actionId").isString()) {
            s.append("  actionId=").append(data.path("actionId").asString());
        }
        if (data.path("action").path("title").isString()) {
            s.append(" \"").append(data.path("action").path("title").asString()).append('"');
        }
        return s.toString();
    }

    static List<String> events(String option) {
        if (option == null) {
            return Events.ALL;
        }
        Set<String> events = new LinkedHashSet<>();
        for (String name : option.split(",", -1)) {
            String event = name.trim();
            if (!Events.ALL.contains(event)) {
                throw new CliException(2, "--events: unknown event \"" + event + "\"; the events are " + String.join(", ", Events.ALL));
            }
            events.add(event);
        }
        return List.copyOf(events);
    }

    static URI forwardTo(String option) {
        if (option == null) {
            return null;
        }
        try {
            URI uri = new URI(option);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return uri;
            }
        } catch (java.net.URISyntaxException e) {
            // reported below
        }
        throw new CliException(2, "--forward-to must be an http or https URL, not " + option);
    }

    private static String header(HttpExchange exchange, String name) {
        return exchange.getRequestHeaders().getFirst(name);
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
