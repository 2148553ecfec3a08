package dev.visibility.mcp.metadata;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.visibility.mcp.server.McpProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@code GET /.well-known/oauth-protected-resource/api/mcp}: the MCP server's protected-resource
 * metadata (RFC 9728; DESIGN.md "MCP and OAuth"), public like the gateway's route: the resource
 * {@code <origin>/api/mcp}, its authorization server {@code <origin>} (auth-service behind the
 * gateway, RFC 8414 metadata at {@code /.well-known/oauth-authorization-server}) and the sign-in
 * scopes OAuth clients ask for (spec 5.10: not API key scopes).
 */
@Configuration(proxyBeanMethods = false)
public class ProtectedResourceMetadata {

    public static final String PATH = "/.well-known/oauth-protected-resource/api/mcp";

    /** The metadata needs no credential: this chain comes before the platform's, for this path only. */
    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    SecurityWebFilterChain protectedResourceMetadataSecurity(ServerHttpSecurity http) {
        return http
                .securityMatcher(ServerWebExchangeMatchers.pathMatchers(PATH))
                .csrf(ServerHttpSecurity.CsrfSpec::disable)
                .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
                .formLogin(ServerHttpSecurity.FormLoginSpec::disable)
                .logout(ServerHttpSecurity.LogoutSpec::disable)
                .requestCache(ServerHttpSecurity.RequestCacheSpec::disable)
                .authorizeExchange(exchanges -> exchanges.anyExchange().permitAll())
                .build();
    }

    @Bean
    RouterFunction<ServerResponse> protectedResourceMetadataRoute(McpProperties properties) {
        Map<String, Object> metadata = document(properties);
        return RouterFunctions.route(RequestPredicates.GET(PATH), request -> ServerResponse.ok()
                .contentType(MediaType.APPLICATION_JSON)
                .cacheControl(CacheControl.maxAge(java.time.Duration.ofHours(1)).cachePublic())
                .bodyValue(metadata));
    }

    public static Map<String, Object> document(McpProperties properties) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("resource", properties.resourceUrl());
        metadata.put("authorization_servers", List.of(properties.publicOrigin()));
        metadata.put("scopes_supported", List.of("openid", "profile", "email"));
        metadata.put("bearer_methods_supported", List.of("header"));
        metadata.put("resource_name", "Visibility suite MCP server");
        return metadata;
    }
}
