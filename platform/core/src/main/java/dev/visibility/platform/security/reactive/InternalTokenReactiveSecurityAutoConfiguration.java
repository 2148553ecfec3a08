package dev.visibility.platform.security.reactive;

import dev.visibility.platform.error.reactive.ReactiveErrorWriter;
import dev.visibility.platform.security.InternalTokenClaims;
import dev.visibility.platform.security.InternalTokenProperties;
import dev.visibility.platform.security.InternalTokenValidation;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.reactive.ReactiveOAuth2ResourceServerAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.ReactiveUserDetailsServiceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtGrantedAuthoritiesConverter;
import org.springframework.security.oauth2.server.resource.authentication.ReactiveJwtAuthenticationConverterAdapter;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;

/**
 * Makes a WebFlux service an OAuth2 resource server that accepts only the gateway's internal
 * token; every failure answers in the error shape. Health probes stay open for the orchestrator.
 */
@AutoConfiguration(before = {ReactiveOAuth2ResourceServerAutoConfiguration.class,
        ReactiveWebSecurityAutoConfiguration.class, ReactiveUserDetailsServiceAutoConfiguration.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnProperty(prefix = "suite.internal-token", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(InternalTokenProperties.class)
@EnableWebFluxSecurity
public class InternalTokenReactiveSecurityAutoConfiguration {

    @Bean
    ReactiveJwtDecoder internalTokenDecoder(InternalTokenProperties properties) {
        NimbusReactiveJwtDecoder decoder = NimbusReactiveJwtDecoder.withPublicKey(properties.verificationKey())
                .signatureAlgorithm(SignatureAlgorithm.RS256)
                .build();
        OAuth2TokenValidator<Jwt> validator = InternalTokenValidation.validator(properties);
        decoder.setJwtValidator(validator);
        return new VerifiedTokenCache(decoder, validator, properties.ttl(), 10_000);
    }

    @Bean
    SecurityWebFilterChain internalTokenSecurity(ServerHttpSecurity http, ReactiveJwtDecoder decoder,
            ReactiveErrorWriter writer) {
        JwtGrantedAuthoritiesConverter authorities = new JwtGrantedAuthoritiesConverter();
        authorities.setAuthoritiesClaimName(InternalTokenClaims.SCOPES);
        JwtAuthenticationConverter converter = new JwtAuthenticationConverter();
        converter.setJwtGrantedAuthoritiesConverter(authorities);
        return http
                .csrf(ServerHttpSecurity.CsrfSpec::disable)
                .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
                .formLogin(ServerHttpSecurity.FormLoginSpec::disable)
                .logout(ServerHttpSecurity.LogoutSpec::disable)
                .requestCache(ServerHttpSecurity.RequestCacheSpec::disable)
                .securityContextRepository(NoOpServerSecurityContextRepository.getInstance())
                .authorizeExchange(exchanges -> exchanges
                        .pathMatchers("/actuator/health", "/actuator/health/**", "/actuator/info", "/actuator/prometheus").permitAll()
                        // the service's OpenAPI document (springdoc), read by the gateway to build /api/v2/openapi.json;
                        // it describes the public API only and the gateway never routes this path
                        .pathMatchers(HttpMethod.GET, "/v3/api-docs").permitAll()
                        .pathMatchers("/internal/**").hasAuthority(InternalTokenClaims.INTERNAL_AUTHORITY)
                        .anyExchange().authenticated())
                .oauth2ResourceServer(oauth -> oauth
                        .jwt(jwt -> jwt.jwtDecoder(decoder)
                                .jwtAuthenticationConverter(new ReactiveJwtAuthenticationConverterAdapter(converter)))
                        .authenticationEntryPoint((exchange, e) -> writer.write(exchange.getResponse(), e))
                        .accessDeniedHandler((exchange, e) -> writer.write(exchange.getResponse(), e)))
                .exceptionHandling(handling -> handling
                        .authenticationEntryPoint((exchange, e) -> writer.write(exchange.getResponse(), e))
                        .accessDeniedHandler((exchange, e) -> writer.write(exchange.getResponse(), e)))
                .addFilterAfter(new ProjectIsolationWebFilter(writer), SecurityWebFiltersOrder.AUTHORIZATION)
                .build();
    }
}
