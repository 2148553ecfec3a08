package dev.visibility.gateway.relay;

import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The proxy's header filters ({@link HopByHopHeaders}): the request's are {@link InternalTokenRelayFilter} alone, the
 * answer's {@link HopByHopHeaders.ResponseFilter}, in place of Spring Cloud Gateway's three copying filters.
 */
@Configuration(proxyBeanMethods = false)
public class ProxyHeadersConfiguration {

    @Bean
    static BeanDefinitionRegistryPostProcessor withoutCopyingHeaderFilters() {
        return HopByHopHeaders.withoutCopyingFilters();
    }

    @Bean
    HopByHopHeaders.ResponseFilter hopByHopResponseHeaders() {
        return new HopByHopHeaders.ResponseFilter();
    }
}
