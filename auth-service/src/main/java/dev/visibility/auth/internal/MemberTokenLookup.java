package dev.visibility.auth.internal;

/** Answer of {@code GET /internal/v1/member-tokens/{sha256hex}} (no envelope). */
public record MemberTokenLookup(String memberId, String accountId) {
}
