package dev.visibility.auth.oauth;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.springframework.core.convert.converter.Converter;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.server.authorization.OAuth2ClientRegistration;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientRegistrationAuthenticationContext;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientRegistrationAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.converter.OAuth2ClientRegistrationRegisteredClientConverter;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;
import org.springframework.security.oauth2.server.authorization.settings.TokenSettings;

/**
 * Open dynamic client registration (RFC 7591) for MCP clients: public clients only
 * ({@code token_endpoint_auth_method} {@code none}, or absent), the authorization code and refresh
 * token grants, PKCE required; the sign-in scopes {@code openid profile email} (MCP clients send
 * {@code scope} in the registration, which Spring's default validator refuses); redirect URIs
 * {@code https}, or {@code http} on a loopback host, without fragment: anything else
 * ({@code javascript:}, custom schemes, plain http elsewhere) is 400 {@code invalid_redirect_uri}.
 */
final class ClientRegistrationPolicy {

    static final Set<String> SCOPES = Set.of("openid", "profile", "email");
    static final List<String> SCOPE_ORDER = List.of("openid", "profile", "email");
    static final int MAX_NAME = 100;
    static final int MAX_REDIRECTS = 10;
    static final Duration ACCESS_TOKEN_LIFETIME = Duration.ofMinutes(15);
    static final Duration REFRESH_TOKEN_LIFETIME = Duration.ofDays(30);

    private static final String ERROR_URI = "https://datatracker.ietf.org/doc/html/rfc7591#section-3.2.2";
    private static final Set<String> GRANTS = Set.of(AuthorizationGrantType.AUTHORIZATION_CODE.getValue(),
            AuthorizationGrantType.REFRESH_TOKEN.getValue());
    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    private ClientRegistrationPolicy() {
    }

    static void validate(OAuth2ClientRegistrationAuthenticationContext context) {
        OAuth2ClientRegistration registration = context.<OAuth2ClientRegistrationAuthenticationToken>getAuthentication().getClientRegistration();
        String name = registration.getClientName();
        if (name != null && (name.length() > MAX_NAME || name.chars().anyMatch(Character::isISOControl))) {
            throw error("invalid_client_metadata", "client_name must be one line of at most " + MAX_NAME + " characters");
        }
        List<String> redirectUris = registration.getRedirectUris();
        if (redirectUris == null || redirectUris.isEmpty()) {
            throw error("invalid_redirect_uri", "redirect_uris must name at least one URI");
        }
        // the store keeps them comma-joined in 1000 characters
        if (redirectUris.size() > MAX_REDIRECTS || String.join(",", redirectUris).length() > 1000) {
            throw error("invalid_redirect_uri", "redirect_uris may name at most " + MAX_REDIRECTS
                    + " URIs of 1000 characters in all");
        }
        for (String redirectUri : redirectUris) {
            if (!acceptableRedirect(redirectUri)) {
                throw error("invalid_redirect_uri",
                        "redirect_uris must be https URIs, or http URIs on localhost, 127.0.0.1 or [::1], without fragment");
            }
        }
        String method = registration.getTokenEndpointAuthenticationMethod();
        if (method != null && !ClientAuthenticationMethod.NONE.getValue().equals(method)) {
            throw error("invalid_client_metadata", "token_endpoint_auth_method must be 'none': only public clients register here");
        }
        List<String> grants = registration.getGrantTypes();
        if (grants != null && !GRANTS.containsAll(grants)) {
            throw error("invalid_client_metadata", "grant_types may hold 'authorization_code' and 'refresh_token' only");
        }
        List<String> responseTypes = registration.getResponseTypes();
        if (responseTypes != null && !Set.of("code").containsAll(responseTypes)) {
            throw error("invalid_client_metadata", "response_types may hold 'code' only");
        }
        List<String> scopes = registration.getScopes();
        if (scopes != null && !SCOPES.containsAll(scopes)) {
            throw error("invalid_client_metadata", "scope may hold 'openid', 'profile' and 'email' only");
        }
        if (registration.getJwkSetUrl() != null) {
            throw error("invalid_client_metadata", "public clients have no jwks_uri");
        }
    }

    static boolean acceptableRedirect(String redirectUri) {
        if (redirectUri == null || redirectUri.chars().anyMatch(c -> c <= ' ')) {
            return false;
        }
        URI uri;
        try {
            uri = new URI(redirectUri);
        } catch (URISyntaxException e) {
            return false;
        }
        if (uri.getFragment() != null || uri.getScheme() == null || uri.getHost() == null || uri.getRawUserInfo() != null) {
            return false;
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        return scheme.equals("https") || (scheme.equals("http") && LOOPBACK.contains(uri.getHost().toLowerCase(Locale.ROOT)));
    }

    /** Spring's conversion, then: a public client with both grants, the sign-in scopes, PKCE, consent and our token lifetimes. */
    static Converter<OAuth2ClientRegistration, RegisteredClient> converter() {
        OAuth2ClientRegistrationRegisteredClientConverter defaults = new OAuth2ClientRegistrationRegisteredClientConverter();
        return registration -> {
            RegisteredClient converted = defaults.convert(registration);
            return RegisteredClient.from(converted)
                    .clientSecret(null)
                    .clientAuthenticationMethods(methods -> {
                        methods.clear();
                        methods.add(ClientAuthenticationMethod.NONE);
                    })
                    .authorizationGrantTypes(grants -> {
                        grants.clear();
                        grants.add(AuthorizationGrantType.AUTHORIZATION_CODE);
                        grants.add(AuthorizationGrantType.REFRESH_TOKEN);
                    })
                    .scopes(scopes -> {
                        scopes.clear();
                        scopes.addAll(SCOPE_ORDER);
                    })
                    .clientSettings(ClientSettings.builder().requireProofKey(true).requireAuthorizationConsent(true).build())
                    .tokenSettings(TokenSettings.builder()
                            .accessTokenTimeToLive(ACCESS_TOKEN_LIFETIME)
                            .refreshTokenTimeToLive(REFRESH_TOKEN_LIFETIME)
                            .reuseRefreshTokens(false)
                            .build())
                    .build();
        };
    }

    private static OAuth2AuthenticationException error(String code, String description) {
        return new OAuth2AuthenticationException(new OAuth2Error(code, description, ERROR_URI));
    }

}
