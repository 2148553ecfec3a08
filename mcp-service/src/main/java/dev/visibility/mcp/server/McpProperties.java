package dev.visibility.mcp.server;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * mcp-service's settings: {@code suite.mcp.*} and where the services it reads listen
 * ({@code suite.services.<name>}, as the gateway's).
 *
 * @param callTimeout  the longest wait for a service's answer to one tool call
 * @param publicOrigin the public origin (the gateway's), which names the MCP resource {@code <origin>/api/mcp}
 *                     and its authorization server in the RFC 9728 metadata
 */
@ConfigurationProperties("suite.mcp")
public record McpProperties(Duration callTimeout, Duration connectTimeout, String publicOrigin) {

    public McpProperties {
        callTimeout = callTimeout == null ? Duration.ofSeconds(10) : callTimeout;
        connectTimeout = connectTimeout == null ? Duration.ofSeconds(2) : connectTimeout;
        publicOrigin = publicOrigin == null ? "http://127.0.0.1:8080" : stripSlash(publicOrigin);
    }

    /** The MCP resource URL, {@code <origin>/api/mcp}: the {@code aud} of OAuth access tokens. */
    public String resourceUrl() {
        return publicOrigin + "/api/mcp";
    }

    public String metadataUrl() {
        return publicOrigin + "/.well-known/oauth-protected-resource/api/mcp";
    }

    private static String stripSlash(String origin) {
        return origin.endsWith("/") ? origin.substring(0, origin.length() - 1) : origin;
    }

    /** {@code suite.services.<name>=<base URI>}. */
    @ConfigurationProperties("suite")
    public record ServiceLocations(Map<String, URI> services) {

        public URI uriOf(String service) {
            URI uri = services == null ? null : services.get(service);
            if (uri == null) {
                throw new IllegalStateException("No location configured for " + service + " (suite.services." + service + ")");
            }
            return uri;
        }
    }
}
