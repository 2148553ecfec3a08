package dev.visibility.auth.oauth;


import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import dev.visibility.auth.accounts.AccountRepository;
import jakarta.servlet.DispatcherType;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.oauth2.server.authorization.OAuth2AuthorizationServerConfigurer;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.security.oauth2.server.authorization.JdbcOAuth2AuthorizationConsentService;
import org.springframework.security.oauth2.server.authorization.JdbcOAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationConsentService;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationContext;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationException;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationProvider;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationValidator;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationConsentAuthenticationProvider;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientRegistrationAuthenticationProvider;
import org.springframework.security.oauth2.server.authorization.client.JdbcRegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.oauth2.server.authorization.token.DelegatingOAuth2TokenGenerator;
import org.springframework.security.oauth2.server.authorization.token.JwtGenerator;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * auth-service as the OAuth 2.1 authorization server of MCP clients (DESIGN.md, MCP and OAuth;
 * issue 20), on Spring Security's authorization server with its JDBC stores:
 * RFC 8414 metadata at {@code /.well-known/oauth-authorization-server}, open dynamic client
 * registration at {@code /oauth2/register} ({@link ClientRegistrationPolicy}), the authorization
 * endpoint with PKCE (S256) required and the {@code resource} parameter required and equal to
 * {@code {issuer}/api/mcp} ({@code invalid_target} otherwise), the consent page as project selector
 * ({@link ConnectionChoice}), the token endpoint (authorization code and refresh token grants,
 * public clients, {@link PublicClientRefresh}), JWT access tokens ({@link AccessTokenClaims}) and
 * the JWKS at {@code /oauth2/jwks}. The issuer is the public origin: {@code suite.oauth.issuer} when
 * set, otherwise each request's own origin as the gateway's forwarded headers give it.
 */
@Configuration(proxyBeanMethods = false)
class AuthorizationServerSecurity {

    static final String CONSENT_PAGE = "/oauth2/consent";

    @Bean
    RegisteredClientRepository registeredClientRepository(JdbcOperations jdbc) {
        return new JdbcRegisteredClientRepository(jdbc);
    }

    @Bean
    OAuth2AuthorizationService authorizationService(JdbcOperations jdbc, RegisteredClientRepository clients) {
        return new JdbcOAuth2AuthorizationService(jdbc, clients);
    }

    @Bean
    OAuth2AuthorizationConsentService authorizationConsentService(JdbcOperations jdbc, RegisteredClientRepository clients) {
        return new JdbcOAuth2AuthorizationConsentService(jdbc, clients);
    }

    @Bean
    JWKSource<SecurityContext> jwkSource(JdbcClient jdbc, TransactionTemplate tx) {
        return new LazyJwkSource(() -> SigningKeys.load(jdbc, tx));
    }

    @Bean
    AuthorizationServerSettings authorizationServerSettings(@Value("${suite.oauth.issuer:}") String issuer) {
        AuthorizationServerSettings.Builder settings = AuthorizationServerSettings.builder();
        if (!issuer.isBlank()) {
            settings.issuer(issuer);
        }
        return settings.build();
    }

    @Bean
    @Order(1)
    SecurityFilterChain authorizationServer(HttpSecurity http, RegisteredClientRepository clients,
            OAuth2AuthorizationService authorizations, OAuth2AuthorizationConsentService consents,
            JWKSource<SecurityContext> keys, AccountRepository accounts, Connections connections) throws Exception {
        JwtGenerator jwts = new JwtGenerator(new NimbusJwtEncoder(keys));
        jwts.setJwtCustomizer(new AccessTokenClaims(accounts, connections));
        OAuth2TokenGenerator<?> tokens = new DelegatingOAuth2TokenGenerator(jwts, PublicClientRefresh.refreshTokens());
        ConnectionChoice choice = new ConnectionChoice(accounts, connections);

        OAuth2AuthorizationServerConfigurer server = new OAuth2AuthorizationServerConfigurer();
        http.securityMatcher(server.getEndpointsMatcher())
                .with(server, as -> as
                        .registeredClientRepository(clients)
                        .authorizationService(authorizations)
                        .authorizationConsentService(consents)
                        .tokenGenerator(tokens)
                        .authorizationServerMetadataEndpoint(metadata -> metadata.authorizationServerMetadataCustomizer(
                                // public clients authenticate with PKCE alone at the token endpoint
                                builder -> builder.tokenEndpointAuthenticationMethod("none")))
                        .clientRegistrationEndpoint(registration -> registration
                                .openRegistrationAllowed(true)
                                .authenticationProviders(providers -> providers.forEach(provider -> {
                                    if (provider instanceof OAuth2ClientRegistrationAuthenticationProvider dcr) {
                                        dcr.setAuthenticationValidator(ClientRegistrationPolicy::validate);
                                        dcr.setRegisteredClientConverter(ClientRegistrationPolicy.converter());
                                    }
                                })))
                        .authorizationEndpoint(authorization -> authorization
                                .consentPage(CONSENT_PAGE)
                                .authenticationProviders(providers -> providers.forEach(provider -> {
                                    if (provider instanceof OAuth2AuthorizationCodeRequestAuthenticationProvider request) {
                                        request.setAuthenticationValidator(
                                                OAuth2AuthorizationCodeRequestAuthenticationValidator.DEFAULT_REDIRECT_URI_VALIDATOR
                                                        .andThen(OAuth2AuthorizationCodeRequestAuthenticationValidator.DEFAULT_SCOPE_VALIDATOR)
                                                        .andThen(AuthorizationServerSecurity::requireMcpResource));
                                        // the project is chosen for every connection: the selector always shows
                                        request.setAuthorizationConsentRequired(context -> true);
                                    }
                                    if (provider instanceof OAuth2AuthorizationConsentAuthenticationProvider consent) {
                                        consent.setAuthorizationConsentCustomizer(choice);
                                    }
                                })))
                        .tokenEndpoint(token -> token.accessTokenRequestConverter(request -> {
                            // RFC 8707 at the token endpoint: a resource, when sent, must be the MCP server
                            String[] resources = request.getParameterValues(McpResource.PARAMETER);
                            if (resources != null && (resources.length != 1 || !McpResource.matches(resources[0]))) {
                                throw new OAuth2AuthenticationException(McpResource.invalidTarget());
                            }
                            return null;
                        }))
                        .clientAuthentication(client -> client
                                .authenticationConverter(PublicClientRefresh.converter())
                                .authenticationProvider(PublicClientRefresh.provider(clients))))
                .authorizeHttpRequests(requests -> requests
                        .dispatcherTypeMatchers(DispatcherType.ERROR).permitAll()
                        .requestMatchers(PathPatternRequestMatcher.withDefaults().matcher(HttpMethod.POST, "/oauth2/register")).permitAll()
                        .anyRequest().authenticated())
                .exceptionHandling(exceptions -> exceptions.defaultAuthenticationEntryPointFor(
                        new LoginUrlAuthenticationEntryPoint("/login"),
                        PathPatternRequestMatcher.withDefaults().matcher("/oauth2/authorize")));
        return http.build();
    }

    /** RFC 8707: the authorization request names the MCP server as its resource, or gets {@code invalid_target}. */
    private static void requireMcpResource(OAuth2AuthorizationCodeRequestAuthenticationContext context) {
        OAuth2AuthorizationCodeRequestAuthenticationToken request = context.getAuthentication();
        if (!McpResource.matches(request.getAdditionalParameters().get(McpResource.PARAMETER))) {
            throw new OAuth2AuthorizationCodeRequestAuthenticationException(McpResource.invalidTarget(), request);
        }
    }

}
