package dev.visibility.auth.config;

import java.time.Duration;
import java.util.Optional;

import reactor.core.publisher.Mono;

/**
 * auth-service runs Spring MVC over the platform's R2DBC stack: handlers wait for their query on
 * the servlet thread, never longer than {@link #TIMEOUT} (the pool and statement time-outs of the
 * platform defaults are shorter, so this is the last line).
 */
public final class Db {

    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private Db() {
    }

    /** The value of {@code mono}, or null when it completes empty. */
    public static <T> T await(Mono<T> mono) {
        return mono.block(TIMEOUT);
    }

    public static <T> Optional<T> awaitOptional(Mono<T> mono) {
        return mono.blockOptional(TIMEOUT);
    }
}
