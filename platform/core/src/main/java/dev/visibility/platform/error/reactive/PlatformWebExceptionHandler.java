package dev.visibility.platform.error.reactive;

import org.springframework.core.annotation.Order;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * The one WebFlux error handler: it runs before Spring Boot's default handler (order -1), so
 * every failure, from a handler, a filter or the framework itself, answers in the error shape.
 */
@Order(-2)
public class PlatformWebExceptionHandler implements WebExceptionHandler {

    private final ReactiveErrorWriter writer;

    public PlatformWebExceptionHandler(ReactiveErrorWriter writer) {
        this.writer = writer;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
        if (exchange.getResponse().isCommitted()) {
            return Mono.error(failure);
        }
        return writer.write(exchange.getResponse(), failure);
    }
}
