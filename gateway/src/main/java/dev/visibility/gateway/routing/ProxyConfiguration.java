package dev.visibility.gateway.routing;

import java.util.List;

import dev.visibility.gateway.relay.HopByHopHeaders;
import dev.visibility.gateway.relay.InternalTokenRelayFilter;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.netty.http.client.HttpClient;

/**
 * The proxy's call to a service: {@link ServiceRoutingFilter} with Spring Cloud Gateway's client, in place of
 * Spring Cloud Gateway's {@code NettyRoutingFilter} and its header filters, which copied every request's and every
 * answer's headers once more each (issue 24). The headers a service gets are written by
 * {@link InternalTokenRelayFilter}, the answer's hop-by-hop headers left out by {@link ServiceRoutingFilter}
 * ({@link HopByHopHeaders}); {@code NettyWriteResponseFilter} still writes the answer's body.
 */
@Configuration(proxyBeanMethods = false)
public class ProxyConfiguration {

    /**
     * Spring Cloud Gateway's bean names ({@code GatewayAutoConfiguration}) of what this configuration stands in for:
     * the routing filter, and the request header filters only it applied (the hop-by-hop, {@code Forwarded} and
     * {@code X-Forwarded-*} removers, and the one that drops {@code Transfer-Encoding} beside a
     * {@code Content-Length}: {@code Transfer-Encoding} is hop-by-hop and never forwarded). {@code ProxiedHeadersTest}
     * fails if one of them is back under another name.
     */
    public static final List<String> REPLACED_BEANS = List.of("routingFilter", "removeHopByHopHeadersFilter",
            "removeXForwardedHeadersFilter", "removeForwardedHeadersFilter", "transferEncodingNormalizationHeadersFilter");

    /**
     * Removes the replaced beans from the context before any bean is made. Idempotent: with Spring AOT the
     * definitions are already gone from the generated registrations at run time.
     */
    @Bean
    static BeanDefinitionRegistryPostProcessor withoutReplacedSpringCloudGatewayBeans() {
        return new BeanDefinitionRegistryPostProcessor() {
            @Override
            public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
                for (String name : REPLACED_BEANS) {
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

    @Bean
    ServiceRoutingFilter serviceRoutingFilter(HttpClient gatewayHttpClient, HttpClientProperties properties,
            InternalTokenRelayFilter relay) {
        return new ServiceRoutingFilter(gatewayHttpClient, properties, relay);
    }
}
