import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.ConnectionProvider;

/**
 * A reference, not a product: the least a reverse proxy on Reactor Netty (the gateway's HTTP stack) can do for a
 * request, so that {@code java -Dgateway.bare=true bench/GatewayOverhead.java} can measure the floor under the
 * gateway's cost on this machine. It forwards every request to one backend with the caller's headers (hop-by-hop,
 * {@code Host} and {@code Authorization} left out) and a fixed {@code Authorization} given in the environment
 * ({@code BARE_PROXY_AUTHORIZATION}: the internal token the benchmark minted), and passes the answer back as it comes.
 * No key check, no rate limit, no isolation, no metrics, no traces, no security headers, no error shape: everything
 * the gateway does beside proxying is left out on purpose. Never run it anywhere but in the benchmark.
 *
 * <p>{@code java -cp '<the gateway jar's BOOT-INF/lib>/*' bench/BareProxy.java <port> <readiness port> <backend URL>};
 * the readiness port answers 200 to any request (the benchmark waits for it as for the gateway's actuator).
 */
public class BareProxy {

    static final Set<String> LEFT_OUT = Set.of("host", "authorization", "connection", "keep-alive", "proxy-connection",
            "te", "trailer", "transfer-encoding", "upgrade", "content-length");

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        int readinessPort = Integer.parseInt(args[1]);
        String backend = args[2];
        String authorization = System.getenv("BARE_PROXY_AUTHORIZATION");
        if (authorization == null || authorization.isBlank()) {
            throw new IllegalStateException("BARE_PROXY_AUTHORIZATION is not set");
        }
        HttpClient client = HttpClient.create(ConnectionProvider.builder("backend").maxConnections(64).build())
                .baseUrl(backend)
                .responseTimeout(Duration.ofSeconds(10));
        DisposableServer proxy = HttpServer.create().host("127.0.0.1").port(port)
                .handle((request, response) -> client.request(request.method())
                        .uri(request.uri())
                        .send((outbound, out) -> {
                            for (Map.Entry<String, String> header : request.requestHeaders()) {
                                if (!LEFT_OUT.contains(header.getKey().toLowerCase(java.util.Locale.ROOT))) {
                                    outbound.addHeader(header.getKey(), header.getValue());
                                }
                            }
                            outbound.header(HttpHeaderNames.AUTHORIZATION, authorization);
                            return out.send(request.receive().retain());
                        })
                        .response((answer, body) -> {
                            response.status(answer.status());
                            for (Map.Entry<String, String> header : answer.responseHeaders()) {
                                String name = header.getKey().toLowerCase(java.util.Locale.ROOT);
                                if (!LEFT_OUT.contains(name) || name.equals("content-length")) {
                                    response.addHeader(header.getKey(), header.getValue());
                                }
                            }
                            return response.send(body.retain());
                        })
                        .then())
                .bindNow();
        HttpServer.create().host("127.0.0.1").port(readinessPort)
                .handle((request, response) -> response.status(HttpResponseStatus.OK).sendString(reactor.core.publisher.Mono.just("UP")))
                .bindNow();
        System.out.println("bare proxy on " + proxy.port() + " to " + backend);
        proxy.onDispose().block();
    }
}
