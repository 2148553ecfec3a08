package dev.visibility.platform.web;

import jakarta.validation.Validation;
import jakarta.validation.Validator;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.springframework.beans.factory.ObjectProvider;

import dev.visibility.platform.error.reactive.PlatformWebExceptionHandler;
import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import dev.visibility.platform.error.servlet.ServletErrorAdvice;
import dev.visibility.platform.error.servlet.ServletErrorController;
import dev.visibility.platform.error.servlet.ServletErrorWriter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.ObjectMapper;

/** Registers the one error handler on whichever web stack the service runs. */
@AutoConfiguration(beforeName = {"org.springframework.boot.webflux.autoconfigure.error.ErrorWebFluxAutoConfiguration",
        "org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration"},
        afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
public class PlatformWebAutoConfiguration {

    /** Request bodies as validated records, the same on both web stacks. */
    @Bean
    @ConditionalOnWebApplication
    RequestBodies requestBodies(ObjectMapper mapper, ObjectProvider<Validator> validator) {
        return new RequestBodies(mapper, validator.getIfAvailable(() -> Validation.byDefaultProvider().configure()
                .messageInterpolator(new ParameterMessageInterpolator()).buildValidatorFactory().getValidator()));
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class Reactive {

        @Bean
        ReactiveErrorWriter reactiveErrorWriter(ObjectMapper mapper) {
            return new ReactiveErrorWriter(mapper);
        }

        @Bean
        PlatformWebExceptionHandler platformWebExceptionHandler(ReactiveErrorWriter writer) {
            return new PlatformWebExceptionHandler(writer);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @Import({ServletErrorAdvice.class, ServletErrorController.class})
    static class Servlet {

        @Bean
        ServletErrorWriter servletErrorWriter(ObjectMapper mapper) {
            return new ServletErrorWriter(mapper);
        }
    }
}
