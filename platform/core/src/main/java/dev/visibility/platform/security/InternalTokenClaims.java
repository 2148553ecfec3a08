package dev.visibility.platform.security;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** Claim names of the internal token, and the mapping between claims and {@link Caller}. */
public final class InternalTokenClaims {

    public static final String ACCOUNT = "acct";
    public static final String PROJECT = "proj";
    public static final String KEY = "key";
    public static final String CLIENT = "cid";
    public static final String USER = "usr";
    public static final String SCOPES = "scp";
    public static final String FEATURES = "feat";
    /** The member who created the API key ({@link Caller#keyCreatorId()}); absent for other credentials. */
    public static final String KEY_CREATOR = "kcr";

    /** The scope of the gateway's own calls to {@code /internal/**} endpoints (never given to an API key). */
    public static final String INTERNAL_SCOPE = "internal";
    public static final String INTERNAL_AUTHORITY = "SCOPE_" + INTERNAL_SCOPE;

    private InternalTokenClaims() {
    }

    public static Caller toCaller(Map<String, Object> claims) {
        return new Caller(text(claims.get(ACCOUNT)), text(claims.get(PROJECT)), text(claims.get(KEY)),
                text(claims.get(CLIENT)), text(claims.get(USER)), set(claims.get(SCOPES)), set(claims.get(FEATURES)),
                text(claims.get(KEY_CREATOR)));
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }

    private static Set<String> set(Object value) {
        Set<String> out = new LinkedHashSet<>();
        if (value instanceof Collection<?> values) {
            values.forEach(v -> out.add(v.toString()));
        } else if (value instanceof String text && !text.isBlank()) {
            out.addAll(java.util.List.of(text.trim().split("\\s+")));
        }
        return out;
    }
}
