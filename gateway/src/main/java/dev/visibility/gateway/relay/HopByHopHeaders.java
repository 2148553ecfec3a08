package dev.visibility.gateway.relay;

import java.util.ArrayList;
import java.util.List;

import org.springframework.http.HttpHeaders;

/**
 * The headers that belong to one connection and never cross the proxy (RFC 9110 section 7.6.1): the fixed
 * hop-by-hop fields, and every field a message names in its {@code Connection} header.
 * <p>
 * Spring Cloud Gateway removes them, and a caller's {@code Forwarded} and {@code X-Forwarded-*} headers, with request
 * header filters of its own that copied every header of every request once more each (issue 24: 10-13 % of the
 * gateway's CPU samples with the copy the proxy makes anyway). The gateway leaves them out in the one copy it makes
 * each way: {@link InternalTokenRelayFilter#forwarded} for the request, {@code routing.ServiceRoutingFilter} for the
 * answer ({@code routing.ProxyConfiguration} takes Spring Cloud Gateway's filters out of the context).
 */
public final class HopByHopHeaders {

    /**
     * The fixed fields, as Spring Cloud Gateway's own filter removes them: RFC 9110's connection-specific fields,
     * the proxy credentials and challenges, and Spring Boot 1's {@code X-Application-Context}.
     */
    private static final String[] FIXED = {"connection", "keep-alive", "transfer-encoding", "te", "trailer",
            "proxy-authorization", "proxy-authenticate", "upgrade", "proxy-connection", "x-application-context"};

    private HopByHopHeaders() {
    }

    /** The field names a request's {@code Connection} header lists (empty when it has none). */
    static List<String> connectionOptions(HttpHeaders headers) {
        return headers.containsHeader(HttpHeaders.CONNECTION) ? headers.getConnection() : List.of();
    }

    /** The field names an answer's {@code Connection} header lists, comma-separated (empty when it has none). */
    public static List<String> connectionOptions(io.netty.handler.codec.http.HttpHeaders headers) {
        List<String> values = headers.getAll(HttpHeaders.CONNECTION);
        if (values.isEmpty()) {
            return List.of();
        }
        List<String> options = new ArrayList<>(2);
        for (String value : values) {
            for (String option : value.split(",")) {
                String name = option.trim();
                if (!name.isEmpty()) {
                    options.add(name);
                }
            }
        }
        return options;
    }

    /** Whether a field stays on its side of the proxy, given the message's {@code connectionOptions}. */
    public static boolean isHopByHop(String name, List<String> connectionOptions) {
        for (String fixed : FIXED) {
            if (fixed.equalsIgnoreCase(name)) {
                return true;
            }
        }
        for (String option : connectionOptions) {
            if (option.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }
}
