package dev.visibility.auth.signin;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import dev.visibility.auth.config.Db;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Repository;

/**
 * Members' passwords (hashes of Spring Security's delegating encoder, {@code {bcrypt}...}) and the
 * sign-in lookup by email. The signed-in principal's name is the member id, so that sessions,
 * OAuth authorizations and the access tokens' {@code sub} name the member, not an email that may change.
 */
@Repository
public class MemberCredentials implements UserDetailsService {

    private final JdbcClient jdbc;
    private final PasswordEncoder encoder;

    public MemberCredentials(JdbcClient jdbc, PasswordEncoder encoder) {
        this.jdbc = jdbc;
        this.encoder = encoder;
    }

    /** Sets a member's password (hashed with the delegating encoder); the email then signs in. */
    public void setPassword(UUID memberId, String password) {
        jdbc.sql("UPDATE members SET password_hash = :hash WHERE id = :id")
                .param("hash", encoder.encode(password)).param("id", memberId)
                .update();
    }

    /** By email, case-insensitively; the username of the answer is the member id. */
    @Override
    public UserDetails loadUserByUsername(String email) {
        return jdbc.sql("SELECT id, password_hash FROM members WHERE lower(email) = lower(:email) AND password_hash IS NOT NULL")
                .param("email", email == null ? "" : email.strip())
                .query((row, n) -> User.withUsername(Db.uuid(row, "id").toString())
                        .password(row.getString("password_hash"))
                        .authorities(List.of())
                        .build())
                .optional()
                .orElseThrow(() -> new UsernameNotFoundException("unknown"));
    }

    /** The signed-in member's id, email, name and account. */
    public record SignedInMember(UUID id, UUID accountId, String email, String name, boolean owner) {
    }

    public Optional<SignedInMember> find(UUID memberId) {
        return jdbc.sql("SELECT id, account_id, email, name, role FROM members WHERE id = :id")
                .param("id", memberId)
                .query((row, n) -> new SignedInMember(Db.uuid(row, "id"), Db.uuid(row, "account_id"),
                        row.getString("email"), row.getString("name"), "owner".equals(row.getString("role"))))
                .optional();
    }
}
