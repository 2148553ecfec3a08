package dev.visibility.auth.dashboard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import dev.visibility.auth.accounts.Member;
import dev.visibility.auth.accounts.ProjectAccess;
import dev.visibility.auth.keys.ApiKeyService;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.web.util.HttpSessionMutexListener;
import org.springframework.web.util.WebUtils;

/**
 * The API key a signed-in member's dashboard session uses for one project's webhooks (auth-service
 * README, "Webhooks page"): the webhooks page calls the public API through the gateway exactly as a
 * customer would, so the gateway's key check, scope check, project isolation and rate limit apply
 * to it unchanged. The key is narrowed to {@code webhooks.read} and {@code webhooks.write}, named
 * for what it is (its creator is the member), kept only in the server-side session (never sent to the browser), and revoked
 * when the session ends: at sign-out, at its time-out (Tomcat tells this listener), and at the
 * latest by the sweep once the session's longest life has passed (a crash or restart ends
 * sessions without telling anyone).
 */
@Component
@EnableScheduling
class SessionApiKeys implements HttpSessionListener {

    static final List<String> SCOPES = List.of("webhooks.read", "webhooks.write");
    /** How such a key shows in the key list (its creator is the signed-in member). */
    static final String NAME = "Dashboard session (webhooks page)";
    private static final String ATTRIBUTE = SessionApiKeys.class.getName();
    private static final Logger LOG = LoggerFactory.getLogger(SessionApiKeys.class);

    private final ApiKeyService keys;
    private final Duration lifetime;
    private final Clock clock;

    SessionApiKeys(ApiKeyService keys, @Value("${server.servlet.session.timeout:8h}") Duration lifetime) {
        this.keys = keys;
        this.lifetime = lifetime;
        this.clock = Clock.systemUTC();
    }

    /** A session's key of one project. {@code key} is the secret: it never leaves the server. */
    record SessionKey(UUID id, UUID projectId, String key, Instant expiresAt) {

        @Override
        public String toString() {
            return "SessionKey[" + id + "]";
        }
    }

    /**
     * The session's key for the project, created on first use (and again once it has expired).
     * Concurrent requests of one session (two tabs, a double click) wait on the session's mutex, so
     * that exactly one of them creates the key and the others use it: the mutex is the one
     * {@link HttpSessionMutexListener} puts in every session ({@link SessionMutex}), a stable object,
     * unlike the {@link HttpSession} facade the container may hand out anew per request.
     */
    String keyFor(HttpSession session, Member member, ProjectAccess project) {
        synchronized (WebUtils.getSessionMutex(session)) {
            Map<UUID, SessionKey> held = held(session);
            SessionKey current = held.get(project.id());
            Instant now = clock.instant();
            if (current != null && current.expiresAt().isAfter(now.plusSeconds(60))) {
                return current.key();
            }
            Instant expiresAt = now.plus(lifetime);
            ApiKeyService.CreatedApiKey created = keys.createSessionKey(project.id(),
                    NAME, SCOPES, member.id(), expiresAt);
            held.put(project.id(), new SessionKey(created.id(), project.id(), created.key().key(), expiresAt));
            if (current != null) {
                keys.revokeSessionKey(current.id(), current.projectId());
            }
            return created.key().key();
        }
    }

    @Override
    public void sessionDestroyed(HttpSessionEvent event) {
        Object value = event.getSession().getAttribute(ATTRIBUTE);
        if (value instanceof Map<?, ?> held) {
            for (Object key : held.values()) {
                if (key instanceof SessionKey sessionKey) {
                    try {
                        keys.revokeSessionKey(sessionKey.id(), sessionKey.projectId());
                    } catch (RuntimeException e) {
                        // the sweep revokes it once its time has passed
                        LOG.warn("Could not revoke the dashboard session key {} at the session's end: {}", sessionKey.id(),
                                e.toString());
                    }
                }
            }
        }
    }

    /** Revokes the session keys whose session ended without telling (every minute). */
    @Scheduled(fixedDelayString = "${suite.dashboard.session-key-sweep:60s}", initialDelayString = "${suite.dashboard.session-key-sweep:60s}")
    void sweep() {
        try {
            int revoked = keys.revokeExpiredSessionKeys();
            if (revoked > 0) {
                LOG.info("Revoked {} dashboard session keys whose session had ended", revoked);
            }
        } catch (RuntimeException e) {
            LOG.warn("Sweep of dashboard session keys failed, next round in a minute: {}", e.toString());
        }
    }

    /** The session's keys by project; called with the session's mutex held. */
    @SuppressWarnings("unchecked")
    private static Map<UUID, SessionKey> held(HttpSession session) {
        Object value = session.getAttribute(ATTRIBUTE);
        if (value == null) {
            value = new ConcurrentHashMap<UUID, SessionKey>();
            session.setAttribute(ATTRIBUTE, value);
        }
        return (Map<UUID, SessionKey>) value;
    }
}
