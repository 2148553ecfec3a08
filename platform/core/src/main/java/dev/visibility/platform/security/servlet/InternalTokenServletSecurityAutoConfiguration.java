package dev.visibility.platform.security.servlet;

import dev.visibility.platform.error.servlet.ServletErrorWriter;
import dev.visibility.platform.security.InternalTokenClaims;
import dev.visibility.platform.security.InternalTokenProperties;
import dev.visibility.platform.security.InternalTokenValidation;
import jakarta.servlet.DispatcherType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtGrantedAuthoritiesConverter;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;

/** The servlet variant of the internal-token resource server (auth-service runs on Spring MVC). */
@AutoConfiguration(beforeName = {
        "org.springframework.boot.security.oauth2.server.resource.autoconfigure.servlet.OAuth2ResourceServerAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration"})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(prefix = "suite.internal-token", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(InternalTokenProperties.class)
@EnableWebSecurity
public class InternalTokenServletSecurityAutoConfiguration {

    @Bean
    JwtDecoder internalTokenDecoder(InternalTokenProperties properties) {
        NimbusJwtDecoder decoder = NimbusJwtDecoder.withPublicKey(properties.verificationKey())
                .signatureAlgorithm(SignatureAlgorithm.RS256)
                .build();
        decoder.setJwtValidator(InternalTokenValidation.validator(properties));
        return decoder;
    }

    @Bean
    SecurityFilterChain internalTokenSecurity(HttpSecurity http, JwtDecoder decoder, ServletErrorWriter writer)
            throws Exception {
        JwtGrantedAuthoritiesConverter authorities = new JwtGrantedAuthoritiesConverter();
        authorities.setAuthoritiesClaimName(InternalTokenClaims.SCOPES);
        JwtAuthenticationConverter converter = new JwtAuthenticationConverter();
        converter.setJwtGrantedAuthoritiesConverter(authorities);
        return http
                .csrf(csrf -> csrf.disable())
                .httpBasic(basic -> basic.disable())
                .formLogin(form -> form.disable())
                .logout(logout -> logout.disable())
                .requestCache(cache -> cache.disable())
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(requests -> requests
                        .dispatcherTypeMatchers(DispatcherType.ERROR).permitAll()
                        .requestMatchers("/actuator/health", "/actuator/health/**", "/actuator/info", "/actuator/prometheus", "/error").permitAll()
                        // the service's OpenAPI document (springdoc), read by the gateway to build /api/v2/openapi.json;
                        // it describes the public API only and the gateway never routes this path
                        .requestMatchers(HttpMethod.GET, "/v3/api-docs").permitAll()
                        .requestMatchers("/internal/**").hasAuthority(InternalTokenClaims.INTERNAL_AUTHORITY)
                        .anyRequest().authenticated())
                .oauth2ResourceServer(oauth -> oauth
                        .jwt(jwt -> jwt.decoder(decoder).jwtAuthenticationConverter(converter))
                        .authenticationEntryPoint((request, response, e) -> writer.write(response, e))
                        .accessDeniedHandler((request, response, e) -> writer.write(response, e)))
                .exceptionHandling(handling -> handling
                        .authenticationEntryPoint((request, response, e) -> writer.write(response, e))
                        .accessDeniedHandler((request, response, e) -> writer.write(response, e)))
                .addFilterAfter(new ProjectIsolationFilter(writer), AuthorizationFilter.class)
                .build();
    }
}
