package dev.visibility.gateway.relay;

import java.util.List;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * The headers that belong to one connection and never cross the proxy (RFC 9110 section 7.6.1): the fixed
 * hop-by-hop fields, and every field a message names in its {@code Connection} header.
 * <p>
 * Spring Cloud Gateway removes them, and a caller's {@code Forwarded} and {@code X-Forwarded-*} headers, with three
 * request header filters of its own that it registers unconditionally; each copied every header of every request
 * once more (issue 24: 10-13 % of the gateway's CPU samples with the copy the proxy makes anyway). The gateway does
 * that work in the one copy {@link InternalTokenRelayFilter} makes, and on answers in place with
 * {@link ResponseFilter}; {@link #withoutCopyingFilters()} takes Spring Cloud Gateway's three out of the context.
 */
public final class HopByHopHeaders {

    /**
     * Spring Cloud Gateway's bean names of the filters this class and {@link InternalTokenRelayFilter} stand in for
     * ({@code GatewayAutoConfiguration}); {@code ProxiedHeadersTest} fails if one of them is back under another name.
     */
    static final List<String> REPLACED_FILTERS = List.of("removeHopByHopHeadersFilter", "removeXForwardedHeadersFilter",
            "removeForwardedHeadersFilter");

    /**
     * The fixed fields, as Spring Cloud Gateway's own filter removes them: RFC 9110's connection-specific fields,
     * the proxy credentials and challenges, and Spring Boot 1's {@code X-Application-Context}.
     */
    private static final String[] FIXED = {"connection", "keep-alive", "transfer-encoding", "te", "trailer",
            "proxy-authorization", "proxy-authenticate", "upgrade", "proxy-connection", "x-application-context"};

    private HopByHopHeaders() {
    }

    /** The field names a message's {@code Connection} header lists (empty when it has none). */
    static List<String> connectionOptions(HttpHeaders headers) {
        return headers.containsHeader(HttpHeaders.CONNECTION) ? headers.getConnection() : List.of();
    }

    /** The field names a {@code Connection} header's value lists (empty for null). */
    public static List<String> connectionOptions(String connection) {
        if (connection == null || connection.isBlank()) {
            return List.of();
        }
        List<String> options = new java.util.ArrayList<>(2);
        for (String option : connection.split(",")) {
            if (!option.isBlank()) {
                options.add(option.trim());
            }
        }
        return options;
    }

    /** Whether a field stays on its side of the proxy, given the message's {@link #connectionOptions}. */
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

    /**
     * Removes Spring Cloud Gateway's copying header filters from the context before any bean is made. Idempotent:
     * with Spring AOT the definitions are already gone from the generated registrations at run time.
     */
    public static BeanDefinitionRegistryPostProcessor withoutCopyingFilters() {
        return new BeanDefinitionRegistryPostProcessor() {
            @Override
            public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
                for (String name : REPLACED_FILTERS) {
                    if (registry.containsBeanDefinition(name)) {
                        registry.removeBeanDefinition(name);
                    }
                }
            }

            @Override
            public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
            }
        };
    }

    /**
     * Removes the hop-by-hop fields of a service's answer. The proxy hands every response filter a new, writable
     * copy of the answer's headers, so this filter removes them in place instead of copying them once more.
     */
    public static final class ResponseFilter implements HttpHeadersFilter, Ordered {

        @Override
        public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
            List<String> options = connectionOptions(input);
            for (String option : options) {
                input.remove(option);
            }
            for (String fixed : FIXED) {
                input.remove(fixed);
            }
            return input;
        }

        @Override
        public boolean supports(Type type) {
            return type == Type.RESPONSE;
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE - 1;
        }
    }
}
