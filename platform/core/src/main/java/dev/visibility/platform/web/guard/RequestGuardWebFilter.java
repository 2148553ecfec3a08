package dev.visibility.platform.web.guard;

import java.util.Map;

import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.InvalidRequest;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.util.MultiValueMap;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/** {@link RequestGuard} on WebFlux (the gateway and every WebFlux service), right after the canonical-path check. */
public class RequestGuardWebFilter implements WebFilter, Ordered {

    private final ReactiveErrorWriter writer;
    private final long maxBodyBytes;

    public RequestGuardWebFilter(ReactiveErrorWriter writer, long maxBodyBytes) {
        this.writer = writer;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 1;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        MultiValueMap<String, String> query;
        try {
            query = request.getQueryParams();
        } catch (IllegalArgumentException e) {
            return writer.write(exchange.getResponse(), new InvalidRequest("The query string is not validly percent-encoded"));
        }
        ApiException refusal = RequestGuard.refusal(request.getMethod().name(), (Map) query,
                request.getHeaders().getContentLength(), maxBodyBytes);
        if (refusal != null) {
            return writer.write(exchange.getResponse(), refusal);
        }
        return chain.filter(exchange);
    }
}
