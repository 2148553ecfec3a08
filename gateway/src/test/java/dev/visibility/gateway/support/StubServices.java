package dev.visibility.gateway.support;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.visibility.gateway.routing.RouteTable;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The services behind the gateway in its tests: down (a loopback port nothing listens on, so
 * routing answers 503 {@code unavailable}), or a plain HTTP server of the test that answers and
 * records what the gateway sends it.
 */
public final class StubServices {

    private StubServices() {
    }

    /** A loopback port on which nothing listens (it was free a moment ago). */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Points every service at one loopback port on which nothing listens; answers that port. */
    public static int allDown(DynamicPropertyRegistry registry) {
        int down = freePort();
        for (String service : RouteTable.SERVICES) {
            registry.add("suite.services." + service, () -> "http://127.0.0.1:" + down);
        }
        return down;
    }

    /** A started HTTP server on 127.0.0.1 and a free port, with a handler per path prefix. */
    public static HttpServer start(Map<String, HttpHandler> handlers) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            handlers.forEach(server::createContext);
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Answers {@code json} with {@code status} and {@code Content-Type: application/json}. */
    public static void answerJson(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
