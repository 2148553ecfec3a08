package dev.visibility.auth.signin;

import java.time.Duration;
import java.util.Locale;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Throttles sign-in per email: after {@link #MAX_FAILURES} failed attempts within {@link #WINDOW},
 * every attempt for that email is refused, right password or not, until the window after the last
 * failure has passed. Counted whether the email belongs to a member or not, so the answers never
 * tell which emails exist. Kept in the database, so every replica counts the same failures.
 */
@Component
public class SignInThrottle {

    static final int MAX_FAILURES = 5;
    static final Duration WINDOW = Duration.ofMinutes(15);

    private final JdbcClient jdbc;

    public SignInThrottle(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public boolean throttled(String email) {
        return jdbc.sql("""
                SELECT EXISTS (SELECT 1 FROM sign_in_failures
                               WHERE email = :email AND failures >= :max AND last_failure > now() - make_interval(secs => :window))""")
                .param("email", normalize(email)).param("max", MAX_FAILURES).param("window", WINDOW.toSeconds())
                .query(Boolean.class).single();
    }

    public void failed(String email) {
        jdbc.sql("""
                INSERT INTO sign_in_failures (email, failures, last_failure) VALUES (:email, 1, now())
                ON CONFLICT (email) DO UPDATE SET
                    failures = CASE WHEN sign_in_failures.last_failure > now() - make_interval(secs => :window)
                                    THEN sign_in_failures.failures + 1 ELSE 1 END,
                    last_failure = now()""")
                .param("email", normalize(email)).param("window", WINDOW.toSeconds())
                .update();
    }

    public void succeeded(String email) {
        jdbc.sql("DELETE FROM sign_in_failures WHERE email = :email").param("email", normalize(email)).update();
    }

    static String normalize(String email) {
        String value = email == null ? "" : email.strip().toLowerCase(Locale.ROOT);
        // a bounded key: nobody fills the table with megabyte-long "emails"
        return value.length() > 320 ? value.substring(0, 320) : value;
    }
}
