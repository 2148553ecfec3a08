package dev.visibility.auth.web;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.sql.Types;
import java.time.Duration;
import java.util.Optional;

import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.servlet.ServletErrorWriter;
import dev.visibility.platform.security.InternalTokenClaims;
import dev.visibility.platform.web.idempotency.IdempotencyCodec;
import dev.visibility.platform.web.idempotency.IdempotencyKeys;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * {@code Idempotency-Key} on auth-service's public POSTs (issue 22; the account API's key
 * creation), with the same rules, table and sealing as the WebFlux services' filter (platform
 * {@code IdempotencyCodec}, README "Idempotency-Key"): the first request with a key runs and its
 * answer is stored; the same key and request within 24 hours replays it byte for byte with
 * {@code Idempotent-Replayed: true}; another request with the key is 400
 * {@code idempotency_key_reused}; a retry while the first runs is 409 {@code idempotency_key_in_use};
 * 5xx answers are not stored. Only requests of the public API (an internal token from the gateway)
 * take part: the sign-in, dashboard and OAuth endpoints have their own protections (CSRF, the
 * authorization code's single use). Runs after Spring Security's chain, which puts the caller in
 * the context.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE - 10)
@ConditionalOnProperty(prefix = "suite.cursor", name = "secret")
class IdempotencyFilter extends OncePerRequestFilter {

    /** The largest body this filter holds in memory; the account API's bodies are far smaller. */
    private static final int MAX_BODY = 64 * 1024;

    private final JdbcClient jdbc;
    private final IdempotencyCodec codec;
    private final ServletErrorWriter errors;
    private final Duration lifetime;
    private final Duration abandonedAfter;

    IdempotencyFilter(JdbcClient jdbc, ServletErrorWriter errors, @Value("${suite.cursor.secret}") String secret,
            @Value("${suite.idempotency.lifetime:24h}") Duration lifetime,
            @Value("${suite.idempotency.abandoned-after:1m}") Duration abandonedAfter) {
        this.jdbc = jdbc;
        this.codec = new IdempotencyCodec(secret);
        this.errors = errors;
        this.lifetime = lifetime;
        this.abandonedAfter = abandonedAfter;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !"POST".equals(request.getMethod()) || request.getHeader(IdempotencyCodec.HEADER) == null;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (!(authentication instanceof JwtAuthenticationToken token)) {
            chain.doFilter(request, response);
            return;
        }
        String idemKey = request.getHeader(IdempotencyCodec.HEADER);
        try {
            IdempotencyCodec.requireValid(idemKey);
            byte[] body = request.getInputStream().readNBytes(MAX_BODY + 1);
            if (body.length > MAX_BODY) {
                throw new ApiException(ErrorCode.PAYLOAD_TOO_LARGE, 413,
                        "A request with an Idempotency-Key may carry at most 64 KiB", null, java.util.Map.of());
            }
            String scope = IdempotencyCodec.scope(InternalTokenClaims.toCaller(token.getToken().getClaims()));
            String hash = IdempotencyCodec.requestHash(request.getRequestURI(), body);
            if (claim(scope, idemKey, hash)) {
                run(new CachedBody(request, body), response, chain, scope, idemKey);
                return;
            }
            IdempotencyKeys.Claim found = existing(scope, idemKey)
                    .orElseThrow(() -> IdempotencyCodec.inProgress(true)); // claimed and released meanwhile: retry
            if (found instanceof IdempotencyKeys.Completed done) {
                if (!done.requestHash().equals(hash)) {
                    throw IdempotencyCodec.reused();
                }
                replay(response, done);
            } else if (found instanceof IdempotencyKeys.InProgress running) {
                throw IdempotencyCodec.inProgress(running.requestHash().equals(hash));
            }
        } catch (ApiException e) {
            errors.write(response, e);
        }
    }

    private void run(HttpServletRequest request, HttpServletResponse response, FilterChain chain, String scope,
            String idemKey) throws ServletException, IOException {
        ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
        boolean stored = false;
        try {
            chain.doFilter(request, answer);
            int status = answer.getStatus();
            if (status < 500) {
                jdbc.sql(IdempotencyCodec.COMPLETE).param("scope", scope).param("key", idemKey).param("status", status)
                        .param("type", answer.getContentType(), Types.VARCHAR)
                        .param("body", codec.seal(answer.getContentAsByteArray()))
                        .update();
                stored = true;
            }
        } finally {
            if (!stored) {
                release(scope, idemKey);
            }
        }
        answer.copyBodyToResponse();
    }

    private boolean claim(String scope, String idemKey, String hash) {
        return jdbc.sql(IdempotencyCodec.CLAIM).param("scope", scope).param("key", idemKey).param("hash", hash)
                .param("lifetime", (double) lifetime.toSeconds()).param("abandoned", (double) abandonedAfter.toSeconds())
                .query((row, n) -> 1).optional().isPresent();
    }

    private Optional<IdempotencyKeys.Claim> existing(String scope, String idemKey) {
        return jdbc.sql(IdempotencyCodec.EXISTING).param("scope", scope).param("key", idemKey)
                .query((row, n) -> row.getBoolean("done")
                        ? (IdempotencyKeys.Claim) new IdempotencyKeys.Completed(row.getString("request_hash"),
                                row.getInt("status"), row.getString("content_type"), codec.open(row.getBytes("body")))
                        : new IdempotencyKeys.InProgress(row.getString("request_hash")))
                .optional();
    }

    private void release(String scope, String idemKey) {
        try {
            jdbc.sql(IdempotencyCodec.RELEASE).param("scope", scope).param("key", idemKey).update();
        } catch (RuntimeException e) {
            // the claim is taken over after suite.idempotency.abandoned-after
            logger.warn("Could not release an Idempotency-Key claim: " + e);
        }
    }

    private static void replay(HttpServletResponse response, IdempotencyKeys.Completed done) throws IOException {
        response.setStatus(done.status());
        if (done.contentType() != null) {
            response.setContentType(done.contentType());
        }
        response.setHeader(IdempotencyCodec.REPLAYED, "true");
        response.setContentLength(done.body().length);
        response.getOutputStream().write(done.body());
    }

    /** The request with its body read once and given again to the handler. */
    private static final class CachedBody extends HttpServletRequestWrapper {

        private final byte[] body;

        CachedBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }
            };
        }

        @Override
        public java.io.BufferedReader getReader() {
            return new java.io.BufferedReader(new java.io.InputStreamReader(getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }
}
