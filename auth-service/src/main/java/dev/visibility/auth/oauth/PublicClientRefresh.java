package dev.visibility.auth.oauth;

import java.time.Instant;
import java.util.Base64;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.crypto.keygen.Base64StringKeyGenerator;
import org.springframework.security.crypto.keygen.StringKeyGenerator;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;
import org.springframework.security.web.authentication.AuthenticationConverter;

/**
 * The refresh token grant for public clients (MCP clients have no secret). Spring's authorization
 * server issues no refresh token to public clients and authenticates them at the token endpoint only
 * with a PKCE {@code code_verifier}; OAuth 2.1 allows refresh tokens for public clients when they
 * rotate, so here: a refresh token is issued to every client with the refresh grant, each use
 * replaces it ({@code reuseRefreshTokens=false}), and a refresh request naming a public client's
 * {@code client_id} without secret identifies that client.
 */
final class PublicClientRefresh {

    private PublicClientRefresh() {
    }

    /** {@code grant_type=refresh_token} with {@code client_id} and no credentials of another method. */
    static AuthenticationConverter converter() {
        return (HttpServletRequest request) -> {
            if (!"POST".equals(request.getMethod())
                    || !AuthorizationGrantType.REFRESH_TOKEN.getValue().equals(request.getParameter(OAuth2ParameterNames.GRANT_TYPE))
                    || request.getHeader(HttpHeaders.AUTHORIZATION) != null
                    || request.getParameter(OAuth2ParameterNames.CLIENT_SECRET) != null
                    || request.getParameter(OAuth2ParameterNames.CLIENT_ASSERTION) != null) {
                return null;
            }
            String[] clientIds = request.getParameterValues(OAuth2ParameterNames.CLIENT_ID);
            if (clientIds == null || clientIds.length != 1 || clientIds[0].isBlank()) {
                return null;
            }
            return new OAuth2ClientAuthenticationToken(clientIds[0], ClientAuthenticationMethod.NONE, null,
                    Map.of(OAuth2ParameterNames.GRANT_TYPE, AuthorizationGrantType.REFRESH_TOKEN.getValue()));
        };
    }

    static AuthenticationProvider provider(RegisteredClientRepository clients) {
        return new AuthenticationProvider() {
            @Override
            public Authentication authenticate(Authentication authentication) {
                OAuth2ClientAuthenticationToken token = (OAuth2ClientAuthenticationToken) authentication;
                if (!ClientAuthenticationMethod.NONE.equals(token.getClientAuthenticationMethod())
                        || !AuthorizationGrantType.REFRESH_TOKEN.getValue()
                                .equals(token.getAdditionalParameters().get(OAuth2ParameterNames.GRANT_TYPE))) {
                    return null;
                }
                RegisteredClient client = clients.findByClientId(String.valueOf(token.getPrincipal()));
                if (client == null || !client.getClientAuthenticationMethods().contains(ClientAuthenticationMethod.NONE)
                        || !client.getAuthorizationGrantTypes().contains(AuthorizationGrantType.REFRESH_TOKEN)) {
                    throw new OAuth2AuthenticationException(OAuth2ErrorCodes.INVALID_CLIENT);
                }
                return new OAuth2ClientAuthenticationToken(client, ClientAuthenticationMethod.NONE, null);
            }

            @Override
            public boolean supports(Class<?> authentication) {
                return OAuth2ClientAuthenticationToken.class.isAssignableFrom(authentication);
            }
        };
    }

    /** Refresh tokens (96 random bytes) for every client with the refresh grant, public ones included. */
    static OAuth2TokenGenerator<OAuth2RefreshToken> refreshTokens() {
        StringKeyGenerator values = new Base64StringKeyGenerator(Base64.getUrlEncoder().withoutPadding(), 96);
        return (OAuth2TokenContext context) -> {
            if (!OAuth2TokenType.REFRESH_TOKEN.equals(context.getTokenType())
                    || !context.getRegisteredClient().getAuthorizationGrantTypes().contains(AuthorizationGrantType.REFRESH_TOKEN)) {
                return null;
            }
            Instant issuedAt = Instant.now();
            return new OAuth2RefreshToken(values.generateKey(), issuedAt,
                    issuedAt.plus(context.getRegisteredClient().getTokenSettings().getRefreshTokenTimeToLive()));
        };
    }
}
