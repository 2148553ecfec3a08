package dev.visibility.auth.signin;

import dev.visibility.platform.error.servlet.ServletErrorWriter;
import jakarta.servlet.DispatcherType;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The browser side of auth-service: sign-in, sign-out, the consent page and the dashboard, with
 * a session (cookie settings in application.yml: HttpOnly, Secure, SameSite=Lax), CSRF tokens on
 * every form, a new session id at sign-in (fixation protection), and strict response headers.
 * Everything else is the platform's internal-token chain (or the authorization server's).
 */
@Configuration(proxyBeanMethods = false)
public class MemberPagesSecurity {

    /** The paths this chain serves. */
    public static final String[] PATHS = {"/login", "/logout", "/dashboard", "/dashboard/**", "/oauth2/consent"};

    /** Spring Security's delegating encoder: bcrypt today, {id}-prefixed hashes stay readable when that changes. */
    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    @Order(2)
    SecurityFilterChain memberPages(HttpSecurity http, MemberCredentials members, PasswordEncoder encoder,
            SignInThrottle throttle, ServletErrorWriter errors) throws Exception {
        DaoAuthenticationProvider passwords = new DaoAuthenticationProvider(members);
        passwords.setPasswordEncoder(encoder);
        ProviderManager signIn = new ProviderManager(new ThrottledSignIn(passwords, throttle));
        return http
                .securityMatcher(PATHS)
                .authenticationManager(signIn)
                .authorizeHttpRequests(requests -> requests
                        .dispatcherTypeMatchers(DispatcherType.ERROR, DispatcherType.FORWARD).permitAll()
                        .requestMatchers("/login", "/dashboard/assets/**").permitAll()
                        .anyRequest().authenticated())
                .formLogin(form -> form
                        .loginPage("/login")
                        .usernameParameter("email")
                        .passwordParameter("password")
                        .defaultSuccessUrl("/dashboard")
                        .failureHandler((request, response, e) -> response.sendRedirect(
                                e instanceof ThrottledSignIn.Throttled ? "/login?throttled" : "/login?error")))
                .logout(logout -> logout.logoutUrl("/logout").logoutSuccessUrl("/login?signedOut"))
                .sessionManagement(session -> session.sessionFixation(fixation -> fixation.changeSessionId()))
                // a POST without a valid CSRF token: 403 in the suite's error shape
                .exceptionHandling(exceptions -> exceptions.accessDeniedHandler((request, response, e) -> errors.write(response, e)))
                .headers(headers -> headers
                        .contentSecurityPolicy(csp -> csp.policyDirectives(
                                "default-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'"))
                        .frameOptions(frame -> frame.deny()))
                .build();
    }
}
