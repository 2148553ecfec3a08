package dev.visibility.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.visibility.gateway.support.StubServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/**
 * Issue 22: with the shared rate-limit store (a real {@code redis-server} process) stopped, the
 * gateway counts per replica with the limit divided by the configured replica count, never fails
 * a request because of it, says so once in the log and as a DEGRADED readiness component; when
 * Redis is back, the shared, exact limit resumes.
 */
class RedisOutageRateLimitTest {

    private static final Duration WINDOW = Duration.ofMinutes(1);
    private static final int LIMIT = 10;
    private static final int REPLICAS = 2;

    private final int port = StubServices.freePort();
    private Process redis;
    private LettuceConnectionFactory connections;

    @AfterEach
    void stop() {
        if (connections != null) {
            connections.destroy();
        }
        stopRedis();
    }

    @Test
    void redisDownDegradesToPerReplicaLimitsAndTheSharedLimitResumesWhenItIsBack() throws Exception {
        startRedis();
        connections = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
        connections.afterPropertiesSet();
        ReactiveStringRedisTemplate template = new ReactiveStringRedisTemplate(connections);
        RedisRateLimiter redisLimiter = new RedisRateLimiter(template, WINDOW, Clock.systemUTC(), Duration.ofMillis(500));
        FallbackRateLimiter limiter = new FallbackRateLimiter(redisLimiter, () -> template.hasKey("ratelimit:probe"),
                new LocalRateLimiter(WINDOW, Clock.systemUTC()), REPLICAS, Duration.ofMillis(200),
                Duration.ofMillis(500), Clock.systemUTC());
        RateLimitStoreHealthIndicator health = new RateLimitStoreHealthIndicator(limiter);
        // The first command opens the connection and loads the script; on a busy machine that can
        // outlast the 500 ms command budget and (rightly) fall back. Wait until the shared store
        // answers on another key before the log is watched and the counted requests begin.
        await("the shared store answering").atMost(Duration.ofSeconds(30))
                .until(() -> limiter.consume("warm-up", LIMIT).block().store() == RateLimiter.Store.SHARED
                        && health.health().block().getStatus().equals(Status.UP));
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        Logger logger = (Logger) LoggerFactory.getLogger(FallbackRateLimiter.class);
        logger.addAppender(logs);
        try {
            // shared: the store counts, the whole limit
            RateLimiter.Decision first = limiter.consume("key-a", LIMIT).block();
            assertThat(first.allowed()).isTrue();
            assertThat(first.limit()).isEqualTo(LIMIT);
            assertThat(first.remaining()).isEqualTo(LIMIT - 1);
            assertThat(first.store()).isEqualTo(RateLimiter.Store.SHARED);
            assertThat(health.health().block().getStatus()).isEqualTo(Status.UP);

            stopRedis();
            // every request is answered (none fails), each replica admits LIMIT / REPLICAS
            int admitted = 0;
            for (int n = 0; n < LIMIT; n++) {
                RateLimiter.Decision decision = limiter.consume("key-a", LIMIT).block(Duration.ofSeconds(5));
                assertThat(decision.limit()).isEqualTo(LIMIT / REPLICAS);
                // issue 23: counted as the fallback's decisions, not the shared store's
                assertThat(decision.store()).isEqualTo(RateLimiter.Store.FALLBACK);
                admitted += decision.allowed() ? 1 : 0;
            }
            assertThat(admitted).isEqualTo(LIMIT / REPLICAS);
            assertThat(limiter.degraded()).isTrue();
            assertThat(health.health().block().getStatus().getCode()).isEqualTo("DEGRADED");
            // the switch is logged once, not per request
            assertThat(logs.list).filteredOn(e -> e.getFormattedMessage().startsWith("Rate-limit store unreachable"))
                    .hasSize(1);

            startRedis();
            await("the shared store used again").atMost(Duration.ofSeconds(30))
                    .until(() -> health.health().block().getStatus().equals(Status.UP));
            // Redis restarted empty: the shared window counts from the store again, with the whole limit
            RateLimiter.Decision back = limiter.consume("key-a", LIMIT).block();
            assertThat(back.limit()).isEqualTo(LIMIT);
            assertThat(back.store()).isEqualTo(RateLimiter.Store.SHARED);
            assertThat(back.remaining()).isEqualTo(LIMIT - 1);
            assertThat(template.keys("ratelimit:key-a:*").collectList().block()).hasSize(1);
            assertThat(logs.list).filteredOn(e -> e.getFormattedMessage().startsWith("Rate-limit store answers again"))
                    .hasSize(1);
        } finally {
            logger.detachAppender(logs);
        }
    }

    private void startRedis() throws IOException {
        String binary = Files.isExecutable(Path.of("/usr/bin/redis-server")) ? "/usr/bin/redis-server" : "redis-server";
        redis = new ProcessBuilder(binary, "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        await("redis-server listening on " + port).atMost(Duration.ofSeconds(20)).until(() -> {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                return true;
            } catch (IOException e) {
                return false;
            }
        });
    }

    private void stopRedis() {
        if (redis != null) {
            redis.destroyForcibly();
            try {
                redis.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            redis = null;
        }
    }
}
