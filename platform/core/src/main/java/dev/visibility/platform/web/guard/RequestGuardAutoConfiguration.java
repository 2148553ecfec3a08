package dev.visibility.platform.web.guard;

import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import dev.visibility.platform.error.servlet.ServletErrorWriter;
import dev.visibility.platform.web.PlatformWebAutoConfiguration;
import org.apache.catalina.Container;
import org.apache.catalina.core.StandardHost;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.util.unit.DataSize;
import reactor.netty.NettyPipeline;

/**
 * Hostile input never gets a 500 or a bare error page (issue 15): every web application of the
 * suite checks method, query and declared body size first ({@link RequestGuard}, limit
 * {@code suite.web.max-body-size}, 1 MiB), and the answers its server makes on its own get the
 * error body (Reactor Netty: {@link NettyErrorBodies}; Tomcat: {@link JsonErrorReportValve}).
 */
@AutoConfiguration(after = PlatformWebAutoConfiguration.class)
public class RequestGuardAutoConfiguration {

    /** Picked up by Spring Boot's JSON mapper: control characters in JSON text are a 400 naming the field. */
    @Bean
    ControlCharactersModule controlCharactersModule() {
        return new ControlCharactersModule();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class Reactive {

        @Bean
        RequestGuardWebFilter requestGuardWebFilter(ReactiveErrorWriter writer,
                @Value("${suite.web.max-body-size:1MB}") DataSize maxBodySize) {
            return new RequestGuardWebFilter(writer, maxBodySize.toBytes());
        }

    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnClass(name = "org.springframework.boot.reactor.netty.NettyServerCustomizer")
    static class ReactorNetty {

        @Bean
        NettyServerCustomizer errorBodiesOnNettyAnswers() {
            return server -> server.doOnChannelInit((observer, channel, remoteAddress) -> {
                if (channel.pipeline().get(NettyPipeline.HttpCodec) != null && channel.pipeline().get(NettyErrorBodies.NAME) == null) {
                    channel.pipeline().addAfter(NettyPipeline.HttpCodec, NettyErrorBodies.NAME, new NettyErrorBodies());
                }
            });
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    static class Servlet {

        @Bean
        FilterRegistrationBean<RequestGuardFilter> requestGuardFilter(ServletErrorWriter writer,
                @Value("${suite.web.max-body-size:1MB}") DataSize maxBodySize) {
            FilterRegistrationBean<RequestGuardFilter> registration =
                    new FilterRegistrationBean<>(new RequestGuardFilter(writer, maxBodySize.toBytes()));
            registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
            registration.addUrlPatterns("/*");
            return registration;
        }

    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(name = "org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory")
    static class Tomcat {

        @Bean
        WebServerFactoryCustomizer<TomcatServletWebServerFactory> jsonTomcatErrorPages() {
            return factory -> factory.addContextCustomizers(context -> {
                Container parent = context.getParent();
                if (parent instanceof StandardHost host) {
                    host.setErrorReportValveClass(JsonErrorReportValve.class.getName());
                }
            });
        }
    }
}
