package dev.visibility.auth.oauth;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

import dev.visibility.auth.accounts.AccountRepository;
import dev.visibility.auth.accounts.Member;
import dev.visibility.auth.accounts.ProjectAccess;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationException;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationConsentAuthenticationContext;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationConsentAuthenticationToken;

/**
 * Reads the consent page's answer ({@code project_id} and {@code capability} values) when the
 * member approves, checks it against what the member may approve on that project now, and stores
 * it with the authorization ({@link Connections}). No project means "deny": the consent is emptied,
 * and Spring answers {@code access_denied} to the client.
 */
final class ConnectionChoice implements Consumer<OAuth2AuthorizationConsentAuthenticationContext> {

    static final String PROJECT = "project_id";
    static final String CAPABILITY = "capability";
    /** Marks a consent as given (a client may ask no scope at all). */
    static final String CONNECTED = "MCP_CONNECTION";

    private final AccountRepository accounts;
    private final Connections connections;

    ConnectionChoice(AccountRepository accounts, Connections connections) {
        this.accounts = accounts;
        this.connections = connections;
    }

    @Override
    public void accept(OAuth2AuthorizationConsentAuthenticationContext context) {
        OAuth2AuthorizationConsentAuthenticationToken answer = context.getAuthentication();
        Map<String, Object> parameters = answer.getAdditionalParameters();
        Object project = parameters.get(PROJECT);
        if (project == null) {
            context.getAuthorizationConsent().authorities(Set::clear);
            return;
        }
        OAuth2Authorization authorization = context.getAuthorization();
        UUID memberId = UUID.fromString(authorization.getPrincipalName());
        Member member = accounts.findMember(memberId).orElseThrow(() -> invalid("the member no longer exists"));
        ProjectAccess access = accounts.findProject(member, uuid(project))
                .filter(ProjectAccess::member)
                .orElseThrow(() -> invalid("project_id is not a project of yours"));
        Set<String> chosen = new LinkedHashSet<>(values(parameters.get(CAPABILITY)));
        chosen.add(Capabilities.READ);
        List<String> offered = Capabilities.offered(access);
        if (!offered.containsAll(chosen)) {
            throw invalid("capability holds a value you may not approve on this project");
        }
        connections.save(authorization.getId(), context.getRegisteredClient().getId(), memberId, access.id(),
                Capabilities.within(chosen, offered));
        context.getAuthorizationConsent().authority(new SimpleGrantedAuthority(CONNECTED));
    }

    private static UUID uuid(Object value) {
        try {
            return UUID.fromString(String.valueOf(value));
        } catch (IllegalArgumentException e) {
            throw invalid("project_id is not a project of yours");
        }
    }

    private static List<String> values(Object value) {
        List<String> values = new ArrayList<>();
        if (value instanceof String text) {
            values.add(text);
        } else if (value instanceof String[] texts) {
            values.addAll(List.of(texts));
        }
        return values;
    }

    /** 400 from the consent endpoint (a tampered form: no redirect to the client). */
    private static OAuth2AuthorizationCodeRequestAuthenticationException invalid(String description) {
        return new OAuth2AuthorizationCodeRequestAuthenticationException(
                new OAuth2Error(OAuth2ErrorCodes.INVALID_REQUEST, description, null), null);
    }
}
