package dev.visibility.gateway.mcp;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;

import dev.visibility.gateway.EdgeFilterOrder;
import dev.visibility.gateway.auth.AuthServiceClient;
import dev.visibility.gateway.auth.CredentialLookups;
import dev.visibility.gateway.auth.Credentials;
import dev.visibility.gateway.auth.EdgeAuthProperties;
import dev.visibility.gateway.auth.EdgePrincipal;
import dev.visibility.platform.error.Unauthorized;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * OAuth access tokens of auth-service on {@code /api/mcp} (DESIGN.md "MCP and OAuth", spec 5.10):
 * a bearer that is not an API key is verified as a JWT: signature through auth-service's JWKS
 * ({@link JwksCache}), {@code iss} the configured issuer, {@code exp} present and not passed,
 * {@code aud} containing the MCP resource URL, a client identifier in {@code client_id},
 * {@code oauth_client_id} or {@code azp}, and a {@code project_id}. Anything else is the same
 * generic 401 as for a bad key (with the {@code WWW-Authenticate} challenge of
 * {@link McpChallengeWebFilter}). A verified token becomes an {@link EdgePrincipal.Kind#OAUTH_CLIENT}
 * principal whose scopes are those its approved {@code capabilities} open ({@link #scopesOf}); the
 * rest of the edge (rate limit, relay) treats it like a key. API keys go on to the authentication
 * filter unchanged; other paths never accept OAuth tokens.
 *
 * <p>A token of auth-service names its connection ({@code connection_id}); each request asks
 * auth-service what that connection may do now (answers kept {@link #CONNECTION_TTL}), so a revoked
 * connection, or a member who lost a permission, is refused (or narrowed) within a second whatever
 * the token's expiry says (issue 20). auth-service unreachable is a 503, as for keys.
 */
@Component
@EnableConfigurationProperties(McpOAuthProperties.class)
public class McpOAuthWebFilter implements WebFilter, Ordered {

    /** The capabilities of auth-service's consent page (claim {@code capabilities}). */
    public static final String READ = "read";
    public static final String WRITE = "write";
    public static final String AGENT_EXECUTION = "agent-execution";

    /** The read scopes the read tools need: every read tool is approved with {@code read}. */
    static final List<String> READ_SCOPES = List.of("visibility.read", "actions.read", "outcomes.read",
            "intelligence.read", "traffic.read", "adoption.read", "agents.read", "webhooks.read");

    static final int MAX_TOKEN = 8192;

    /** How long an answer about a connection is kept: a revocation is seen within this (and within 1 s). */
    static final Duration CONNECTION_TTL = Duration.ofMillis(500);

    private static final Logger log = LoggerFactory.getLogger(McpOAuthWebFilter.class);

    private final NimbusReactiveJwtDecoder decoder;
    private final Credentials credentials;
    private final ReactiveErrorWriter errors;
    private final AsyncLoadingCache<String, Optional<AuthServiceClient.ConnectionLookup>> connections;

    public McpOAuthWebFilter(McpOAuthProperties properties, EdgeAuthProperties edge, ReactiveErrorWriter errors,
            CredentialLookups lookups, @Value("${suite.mcp.public-origin:}") String publicOrigin) {
        this.credentials = new Credentials(edge.keyPrefix());
        this.errors = errors;
        this.connections = Caffeine.newBuilder()
                .expireAfterWrite(CONNECTION_TTL)
                .maximumSize(10_000)
                .buildAsync((id, executor) -> lookups.oauthConnection(id).toFuture());
        this.decoder = properties.enabled() ? decoder(properties, publicOrigin) : null;
    }

    private static NimbusReactiveJwtDecoder decoder(McpOAuthProperties properties, String publicOrigin) {
        String issuer = properties.issuer() != null ? strip(properties.issuer()) : strip(publicOrigin);
        if (issuer == null || issuer.isBlank()) {
            throw new IllegalStateException("suite.mcp.oauth.jwk-set-uri is set: set suite.mcp.oauth.issuer "
                    + "(or suite.mcp.public-origin) to the public origin too");
        }
        String audience = properties.audience() != null ? properties.audience() : issuer + "/api/mcp";
        JwksCache keys = new JwksCache(properties);
        NimbusReactiveJwtDecoder decoder = NimbusReactiveJwtDecoder.withJwkSource(keys::keysFor)
                // auth-service signs with RS256 (its SigningKeys); no other algorithm, and never "none"
                .jwsAlgorithm(SignatureAlgorithm.RS256)
                .build();
        List<OAuth2TokenValidator<Jwt>> validators = List.of(
                new JwtTimestampValidator(properties.clockSkew()),
                new JwtClaimValidator<Object>(JwtClaimNames.EXP, exp -> exp != null),
                new JwtIssuerValidator(issuer),
                new JwtClaimValidator<Object>(JwtClaimNames.AUD,
                        aud -> aud instanceof Collection<?> list ? list.contains(audience) : audience.equals(aud)),
                new JwtClaimValidator<Object>("project_id", project -> project instanceof String text && !text.isBlank()),
                jwt -> clientId(jwt) != null ? OAuth2TokenValidatorResult.success()
                        : OAuth2TokenValidatorResult.failure(new OAuth2Error("invalid_token",
                                "no client_id, oauth_client_id or azp", null)));
        decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(validators));
        return decoder;
    }

    @Override
    public int getOrder() {
        // after the challenge filter, before the API key authentication
        return EdgeFilterOrder.AUTHENTICATION - 2;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!McpChallengeWebFilter.MCP_PATH.equals(exchange.getRequest().getPath().pathWithinApplication().value())
                || exchange.getRequest().getMethod() == HttpMethod.OPTIONS) {
            return chain.filter(exchange);
        }
        String token = bearer(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
        if (token == null || credentials.isApiKey(token) || !looksLikeJwt(token)) {
            return chain.filter(exchange);
        }
        if (decoder == null) {
            return errors.write(exchange.getResponse(), new Unauthorized());
        }
        return decoder.decode(token)
                .onErrorResume(failure -> {
                    // never the token; the reason only (expired, wrong audience, unknown key ...)
                    log.debug("OAuth access token refused on /api/mcp: {}", failure.toString());
                    return Mono.empty();
                })
                .flatMap(this::principalNow)
                .map(principal -> {
                    exchange.getAttributes().put(EdgePrincipal.ATTRIBUTE, principal);
                    return true;
                })
                .defaultIfEmpty(false)
                .flatMap(accepted -> accepted ? chain.filter(exchange) : errors.write(exchange.getResponse(), new Unauthorized()));
    }

    /**
     * The principal of a verified token as its connection stands now: empty (401) once the connection is
     * revoked or belongs to another project or client, its capabilities narrowed to those it still has.
     */
    private Mono<EdgePrincipal> principalNow(Jwt jwt) {
        String connectionId = jwt.getClaimAsString("connection_id");
        if (connectionId == null || connectionId.isBlank()) {
            return Mono.just(principal(jwt));
        }
        if (connectionId.length() > 100) {
            return Mono.empty();
        }
        return Mono.fromFuture(() -> connections.get(connectionId)).flatMap(found -> {
            if (found.isEmpty() || !found.get().projectId().equals(jwt.getClaimAsString("project_id"))
                    || !found.get().clientId().equals(clientId(jwt))) {
                return Mono.empty();
            }
            Set<String> approved = capabilities(jwt);
            approved.retainAll(found.get().capabilities());
            // the account from auth-service: its tokens do not carry one
            return Mono.just(principal(jwt, approved, found.get().accountId()));
        });
    }

    static EdgePrincipal principal(Jwt jwt) {
        return principal(jwt, capabilities(jwt), jwt.getClaimAsString("account_id"));
    }

    /** The capabilities the token was approved with (claim {@code capabilities}, a list or a space-separated string). */
    static Set<String> capabilities(Jwt jwt) {
        Object capabilities = jwt.getClaims().get("capabilities");
        Set<String> approved = new LinkedHashSet<>();
        if (capabilities instanceof Collection<?> list) {
            list.forEach(c -> approved.add(String.valueOf(c)));
        } else if (capabilities instanceof String text) {
            approved.addAll(List.of(text.trim().split("\\s+")));
        }
        return approved;
    }

    static EdgePrincipal principal(Jwt jwt, Set<String> approved, String account) {
        String plan = jwt.getClaimAsString("plan");
        return new EdgePrincipal(EdgePrincipal.Kind.OAUTH_CLIENT, clientId(jwt), jwt.getClaimAsString("project_id"),
                account, scopesOf(approved), Set.of(), plan, true, false, null, jwt.getSubject());
    }

    /** The scopes the internal token carries for these approved capabilities (the REST services check them). */
    public static Set<String> scopesOf(Collection<String> capabilities) {
        Set<String> scopes = new LinkedHashSet<>();
        if (capabilities.contains(READ)) {
            scopes.addAll(READ_SCOPES);
        }
        if (capabilities.contains(WRITE)) {
            scopes.add("actions.write");
        }
        if (capabilities.contains(AGENT_EXECUTION)) {
            scopes.add("agents.run");
        }
        return scopes;
    }

    static String clientId(Jwt jwt) {
        for (String claim : List.of("client_id", "oauth_client_id", "azp")) {
            String value = jwt.getClaimAsString(claim);
            if (value != null && !value.isBlank()) {
                return value;
            }
        }
        return null;
    }

    /** The bearer token: an access token is longer than an API key, up to {@value #MAX_TOKEN} characters. */
    static String bearer(String header) {
        if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = header.substring(7).trim();
        return token.isEmpty() || token.length() > MAX_TOKEN ? null : token;
    }

    private static boolean looksLikeJwt(String token) {
        int first = token.indexOf('.');
        return first > 0 && token.indexOf('.', first + 1) > first + 1 && token.indexOf('.', token.lastIndexOf('.') + 1) < 0;
    }

    private static String strip(String origin) {
        if (origin == null || origin.isBlank()) {
            return null;
        }
        return origin.endsWith("/") ? origin.substring(0, origin.length() - 1) : origin;
    }
}
