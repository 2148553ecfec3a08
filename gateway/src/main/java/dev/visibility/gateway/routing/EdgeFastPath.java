package dev.visibility.gateway.routing;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Predicate;

import dev.visibility.gateway.access.AccessWebFilter;
import dev.visibility.gateway.auth.CredentialCache;
import dev.visibility.gateway.auth.Credentials;
import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.gateway.ratelimit.RateLimitWebFilter;
import dev.visibility.gateway.ratelimit.RateLimiter;
import dev.visibility.gateway.relay.HopByHopHeaders;
import dev.visibility.gateway.relay.InternalTokenRelayFilter;
import dev.visibility.platform.error.ApiError;
import dev.visibility.platform.error.ErrorMapper;
import dev.visibility.platform.error.Unavailable;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import dev.visibility.platform.security.ProjectPaths;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.util.concurrent.FastThreadLocal;
import org.reactivestreams.Publisher;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * The edge's fast path (issue 24): an API key's {@code GET} of a project endpoint that every edge check admits is
 * proxied here, on Reactor Netty's own request and response, instead of through WebFlux, Spring Security's chain
 * and Spring Cloud Gateway (about half of the gateway's CPU a request: bench/GatewayOverhead.md). Every other request
 * goes the full way, unchanged.
 * <p>
 * <b>It admits only what the full way would forward</b>, and decides that from the request alone, before anything is
 * counted or sent: a request that any check does not positively pass is left to the full way, which answers it as
 * before (400, 401, 403, 404, 405, 429 of failed authentications, CORS, ...). Admitted is a request that
 * <ul>
 * <li>is a {@code GET} without a body (no {@code Transfer-Encoding} or {@code Expect}, a {@code Content-Length} of 0 at most) whose
 * target is a path in canonical form ({@link ProjectPaths#nonCanonical}) of only unreserved characters and
 * {@code /} (no percent-encoding, no {@code ;}, no dot segment, no empty segment), with a query of only unreserved
 * characters, {@code =}, {@code &}, {@code ,} and {@code :} (nothing to decode, so nothing the firewall or the
 * request guard refuses);</li>
 * <li>has only printable ASCII in its header names and values, and none of {@code Origin} (CORS),
 * {@code Forwarded} or {@code X-Forwarded-*}, or a caller's trace headers (the full way continues a caller's
 * trace);</li>
 * <li>carries an API key that this gateway already knows as valid ({@link CredentialCache#knownApiKey}: a key not
 * cached, unknown or revoked goes the full way, which looks it up and counts failures), for a route of
 * {@link RouteTable} ({@link RouteResolver}) that is neither public, the account API nor MCP, of the key's own
 * project, with no refusal of {@link AccessWebFilter#refusal} (plan, scope, feature).</li>
 * </ul>
 * Then it does what the full way does: the rate limit ({@link RateLimitWebFilter#decide}, the same windows, usage
 * and counters; a refusal is the same 429), the service's headers ({@link InternalTokenRelayFilter}: the caller's
 * headers but the credential, cookies and hop-by-hop ones, the internal token, the gateway's {@code traceparent}),
 * the answer's headers (the service's but hop-by-hop ones, the rate-limit headers, Spring Security's default
 * headers where the service did not set them), the errors of a service that does not answer in the error shape
 * (503, 504 after {@code httpclient.response-timeout}, through Spring Cloud Gateway's {@link HttpClient}), and the
 * metrics {@code http.server.requests} (uri {@code UNKNOWN}, as the full way tags a proxied request) and
 * {@code spring.cloud.gateway.requests}. {@code EdgeFastPathTest} holds the two ways to the same answers.
 * <p>
 * {@code suite.gateway.fast-path=false} turns it off (every request the full way).
 */
public class EdgeFastPath implements Predicate<HttpServerRequest>, BiFunction<HttpServerRequest, HttpServerResponse, Publisher<Void>>,
        ApplicationListener<ReactiveWebServerInitializedEvent> {

    /** The counter of requests this path served (Prometheus {@code gateway_fast_path_requests_total}), docs/operations.md. */
    public static final String SERVED = "gateway.fast.path.requests";

    private static final String PREFIX = "/api/v2/projects/";
    /** Spring Security's default headers (its writers add each when the answer does not have it already). */
    private static final String[][] SECURITY_HEADERS = {{"X-Content-Type-Options", "nosniff"},
            {"X-XSS-Protection", "0"}, {"X-Frame-Options", "DENY"}, {"Referrer-Policy", "no-referrer"}};
    private static final String CACHE_CONTROL = "no-cache, no-store, max-age=0, must-revalidate";

    /** What {@link #test} admitted, for {@link #apply} of the same request right after it on the same thread. */
    private final FastThreadLocal<Admitted> admitted = new FastThreadLocal<>();

    private final Credentials credentials;
    private final CredentialCache cache;
    private final RouteResolver routes;
    private final Map<String, Service> services = new HashMap<>();
    private final RateLimitWebFilter rateLimit;
    private final InternalTokenRelayFilter relay;
    private final RouteRequestTimer routeTimer;
    private final ReactiveErrorWriter errors;
    private final HttpClient client;
    private final Tracer tracer;
    private final MeterRegistry meters;
    private final Map<Integer, Timer> serverTimers = new ConcurrentHashMap<>();
    private final Counter served;
    /** -1 until the public server listens. */
    private volatile int publicPort = -1;

    public EdgeFastPath(String keyPrefix, CredentialCache cache, RouteResolver routes,
            RoutingConfiguration.ServiceLocations locations, RateLimitWebFilter rateLimit, InternalTokenRelayFilter relay,
            RouteRequestTimer routeTimer, ReactiveErrorWriter errors, HttpClient client, Tracer tracer, MeterRegistry meters) {
        this.credentials = new Credentials(keyPrefix);
        this.cache = cache;
        this.routes = routes;
        for (ApiRoute route : RouteTable.ROUTES) {
            URI uri = locations.uriOf(route.service());
            String origin = uri.getScheme() + "://" + uri.getHost() + (uri.getPort() != -1 ? ":" + uri.getPort() : "");
            services.putIfAbsent(route.service(), new Service(origin, uri.toString()));
        }
        this.rateLimit = rateLimit;
        this.relay = relay;
        this.routeTimer = routeTimer;
        this.errors = errors;
        this.client = client;
        this.tracer = tracer;
        this.meters = meters;
        this.served = Counter.builder(SERVED)
                .description("Requests the edge fast path proxied; every other request went the full way")
                .register(meters);
    }

    /**
     * The public server's port, once it listens: the management server (a context and port of its own) gets the same
     * server customisation, and the fast path answers on the public port only.
     */
    @Override
    public void onApplicationEvent(ReactiveWebServerInitializedEvent event) {
        if (event.getApplicationContext().getServerNamespace() == null) {
            publicPort = event.getWebServer().getPort();
        }
    }

    /** How many requests this path has served (tests tell the two ways apart by it). */
    public long served() {
        return (long) served.count();
    }

    /** Whether this request is admitted (see the class comment); keeps what it found for {@link #apply}. */
    @Override
    public boolean test(HttpServerRequest request) {
        Admitted found = admit(request);
        admitted.set(found);
        return found != null;
    }

    Admitted admit(HttpServerRequest request) {
        if (request.method() != HttpMethod.GET) {
            return null;
        }
        String target = request.uri();
        if (!target.startsWith(PREFIX) || !(request.connectionHostAddress() instanceof InetSocketAddress local)
                || local.getPort() != publicPort) {
            return null;
        }
        int question = target.indexOf('?');
        String path = question < 0 ? target : target.substring(0, question);
        if (!plainPath(path) || (question >= 0 && !plainQuery(target, question + 1)) || ProjectPaths.nonCanonical(path) != null) {
            return null;
        }
        String token = null;
        for (Map.Entry<String, String> header : request.requestHeaders()) {
            String name = header.getKey();
            if (!printable(name) || !printable(header.getValue()) || refusedHeader(name, header.getValue())) {
                return null;
            }
            if (name.equalsIgnoreCase("Authorization")) {
                if (token != null) {
                    return null;
                }
                token = Credentials.bearer(header.getValue());
                if (token == null) {
                    return null;
                }
            }
        }
        if (token == null || !credentials.isApiKey(token)) {
            return null;
        }
        ApiRoute route = routes.resolve("GET", path);
        if (route == null || route.scope() != null && (ApiRoute.PUBLIC.equals(route.scope())
                || ApiRoute.MEMBER.equals(route.scope()) || ApiRoute.MCP.equals(route.scope()))) {
            return null;
        }
        EdgePrincipal principal = cache.knownApiKey(Credentials.sha256Hex(token)).orElse(null);
        if (principal == null || principal.kind() != EdgePrincipal.Kind.API_KEY
                || !principal.projectId().equals(ProjectPaths.projectIdOf(path))
                || AccessWebFilter.refusal(route, principal) != null) {
            return null;
        }
        return new Admitted(request, route, principal, services.get(route.service()));
    }

    @Override
    public Publisher<Void> apply(HttpServerRequest request, HttpServerResponse response) {
        Admitted found = admitted.get();
        admitted.remove();
        if (found == null || found.request() != request) {
            found = admit(request);
            if (found == null) {
                // the route is only taken when test() admitted this request, just before on this thread; should the
                // key have been revoked in between, the caller is told to retry (and meets the full way then)
                return error(response, ErrorMapper.map(new Unavailable("The service is temporarily unavailable; retry later")),
                        new int[1]);
            }
        }
        served.increment();
        long start = System.nanoTime();
        Admitted admittedRequest = found;
        Span span = tracer == Tracer.NOOP ? null : tracer.spanBuilder().setNoParent().name("http get").start();
        int[] status = {0};
        Throwable[] failure = {null};
        return rateLimit.decide(found.principal())
                .flatMap(decision -> {
                    HttpHeaders headers = response.responseHeaders();
                    headers.set(RateLimitWebFilter.LIMIT, decision.limit());
                    headers.set(RateLimitWebFilter.REMAINING, decision.remaining());
                    headers.set(RateLimitWebFilter.RESET, decision.resetAt());
                    if (!decision.allowed()) {
                        return error(response, ErrorMapper.map(rateLimit.refusal(decision)), status);
                    }
                    return proxy(request, response, admittedRequest, span, status);
                })
                .onErrorResume(error -> {
                    failure[0] = error;
                    return response.hasSentHeaders() ? Mono.error(error) : error(response, ErrorMapper.map(error), status);
                })
                .doFinally(signal -> finish(admittedRequest, start, status[0], failure[0], span));
    }

    private Mono<Void> proxy(HttpServerRequest request, HttpServerResponse response, Admitted found, Span span, int[] status) {
        String token = relay.tokenOf(found.principal());
        String traceparent = span == null ? null : InternalTokenRelayFilter.traceparent(span.context());
        List<String> options = HopByHopHeaders.connectionOptions(request.requestHeaders().get(HttpHeaderNames.CONNECTION));
        return client.request(HttpMethod.GET)
                .uri(found.service().origin() + request.uri())
                .send((outbound, out) -> {
                    HttpHeaders headers = outbound.requestHeaders();
                    // the client's defaults give way to the caller's own
                    if (request.requestHeaders().contains(HttpHeaderNames.USER_AGENT)) {
                        headers.remove(HttpHeaderNames.USER_AGENT);
                    }
                    if (request.requestHeaders().contains(HttpHeaderNames.ACCEPT)) {
                        headers.remove(HttpHeaderNames.ACCEPT);
                    }
                    for (Map.Entry<String, String> header : request.requestHeaders()) {
                        String name = header.getKey();
                        if (!name.equalsIgnoreCase("Host") && !name.equalsIgnoreCase("Content-Length") && relay.forwardsOnApiKeyRequest(name)
                                && !HopByHopHeaders.isHopByHop(name, options)) {
                            headers.add(name, header.getValue());
                        }
                    }
                    headers.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + token);
                    if (traceparent != null) {
                        headers.set("traceparent", traceparent);
                    }
                    return Mono.empty();
                })
                .response((answer, body) -> {
                    status[0] = answer.status().code();
                    // by its code: the standard reason phrase, as the full way writes it (a service may send none)
                    response.status(status[0]);
                    HttpHeaders headers = response.responseHeaders();
                    HttpHeaders received = answer.responseHeaders();
                    List<String> answerOptions = HopByHopHeaders.connectionOptions(received.get(HttpHeaderNames.CONNECTION));
                    for (Map.Entry<String, String> header : received) {
                        if (!HopByHopHeaders.isHopByHop(header.getKey(), answerOptions)) {
                            headers.add(header.getKey(), header.getValue());
                        }
                    }
                    securityHeaders(headers, status[0]);
                    return response.send(body.retain());
                })
                .then();
    }

    private Mono<Void> error(HttpServerResponse response, ApiError error, int[] status) {
        status[0] = error.status();
        byte[] body = errors.body(error);
        HttpHeaders headers = response.responseHeaders();
        headers.remove(HttpHeaderNames.CONTENT_LENGTH);
        headers.remove(HttpHeaderNames.CONTENT_ENCODING);
        headers.remove(HttpHeaderNames.TRANSFER_ENCODING);
        headers.set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        headers.set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        error.headers().forEach(headers::set);
        securityHeaders(headers, error.status());
        headers.set(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return response.status(error.status()).send(Mono.just(Unpooled.wrappedBuffer(body))).then();
    }

    /** What Spring Security's default header writers add to an answer that does not have them. */
    static void securityHeaders(HttpHeaders headers, int status) {
        if (status != 304 && !headers.contains(HttpHeaderNames.CACHE_CONTROL) && !headers.contains(HttpHeaderNames.EXPIRES)
                && !headers.contains(HttpHeaderNames.PRAGMA)) {
            headers.set(HttpHeaderNames.CACHE_CONTROL, CACHE_CONTROL);
            headers.set(HttpHeaderNames.PRAGMA, "no-cache");
            headers.set(HttpHeaderNames.EXPIRES, "0");
        }
        for (String[] header : SECURITY_HEADERS) {
            if (!headers.contains(header[0])) {
                headers.set(header[0], header[1]);
            }
        }
    }

    private void finish(Admitted found, long start, int status, Throwable failure, Span span) {
        long nanos = System.nanoTime() - start;
        String outcome = outcome(status);
        serverTimers.computeIfAbsent(status, this::serverTimer).record(nanos, TimeUnit.NANOSECONDS);
        routeTimer.record(found.route().id(), found.service().uri(), org.springframework.http.HttpMethod.GET,
                status == 0 ? -1 : status, nanos);
        if (span != null) {
            span.tag("method", "GET");
            span.tag("status", status == 0 ? "UNKNOWN" : String.valueOf(status));
            span.tag("outcome", outcome);
            span.tag("uri", "UNKNOWN");
            span.tag("exception", failure == null ? "none" : failure.getClass().getSimpleName());
            span.tag("http.url", found.request().uri());
            if (failure != null) {
                span.error(failure);
            }
            span.end();
        }
    }

    /** {@code http.server.requests} as Spring's observation of a proxied request tags it (its own is not run here). */
    private Timer serverTimer(int status) {
        return Timer.builder("http.server.requests")
                .tag("error", "none")
                .tag("exception", "none")
                .tag("method", "GET")
                .tag("outcome", outcome(status))
                .tag("status", status == 0 ? "UNKNOWN" : String.valueOf(status))
                .tag("uri", "UNKNOWN")
                .register(meters);
    }

    /** The {@code outcome} tag of Spring's server observation (its {@code HttpOutcome}) for a status. */
    static String outcome(int status) {
        return switch (status / 100) {
            case 1 -> "INFORMATIONAL";
            case 2 -> "SUCCESS";
            case 3 -> "REDIRECTION";
            case 4 -> "CLIENT_ERROR";
            case 5 -> "SERVER_ERROR";
            default -> "UNKNOWN";
        };
    }

    /**
     * The headers that send a request the full way. Java's {@code HttpClient} asks every cleartext request to upgrade
     * to HTTP/2 ({@code Upgrade: h2c}, {@code HTTP2-Settings}, {@code Connection: Upgrade, HTTP2-Settings}) and sends
     * {@code Content-Length: 0} with a GET: both are admitted (this server speaks HTTP/1.1 and ignores the upgrade, and
     * neither header is forwarded), any other upgrade or length is not.
     */
    private boolean refusedHeader(String name, String value) {
        return name.equalsIgnoreCase("Origin") || name.equalsIgnoreCase("Forwarded") || name.regionMatches(true, 0, "X-Forwarded-", 0, 12)
                || name.equalsIgnoreCase("Content-Length") && !value.equals("0") || name.equalsIgnoreCase("Transfer-Encoding")
                || name.equalsIgnoreCase("Expect") || name.equalsIgnoreCase("Upgrade") && !value.equalsIgnoreCase("h2c")
                || relay.isTraceHeader(name) || name.regionMatches(true, 0, "X-B3-", 0, 5);
    }

    /** Only unreserved characters and single slashes, no dot segment, no trailing slash. */
    static boolean plainPath(String path) {
        int segmentStart = 1;
        for (int i = 1; i <= path.length(); i++) {
            char c = i < path.length() ? path.charAt(i) : '/';
            if (c == '/') {
                int length = i - segmentStart;
                if (length == 0 || (path.charAt(segmentStart) == '.' && (length == 1 || length == 2 && path.charAt(segmentStart + 1) == '.'))) {
                    return false;
                }
                segmentStart = i + 1;
            } else if (!unreserved(c)) {
                return false;
            }
        }
        return true;
    }

    static boolean plainQuery(String target, int from) {
        for (int i = from; i < target.length(); i++) {
            char c = target.charAt(i);
            if (!unreserved(c) && c != '=' && c != '&' && c != ',' && c != ':') {
                return false;
            }
        }
        return true;
    }

    private static boolean unreserved(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~';
    }

    private static boolean printable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    record Admitted(HttpServerRequest request, ApiRoute route, EdgePrincipal principal, Service service) {
    }

    /** A service's origin (what a request's target is appended to) and its URI as the route timer tags it. */
    record Service(String origin, String uri) {
    }
}
