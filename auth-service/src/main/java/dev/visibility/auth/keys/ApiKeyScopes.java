package dev.visibility.auth.keys;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.visibility.platform.error.InvalidParameter;

/**
 * Scope names of spec 5.5. The Library and managed-agent scopes are explicit grants (spec 5.6):
 * never part of "all default scopes", so keys created before they existed are not widened.
 */
public final class ApiKeyScopes {

    /** Every scope, in the order of spec 5.5 (answers list scopes in this order). */
    public static final List<String> ALL = List.of("visibility.read", "citations.read", "competitive.read",
            "adoption.read", "traffic.read", "tests.read", "actions.read", "actions.write", "intelligence.read",
            "library.read", "library.write", "webhooks.read", "webhooks.write", "pages.read", "audit.read",
            "outcomes.read", "referrals.read", "agents.read", "agents.run");

    public static final Set<String> EXPLICIT_GRANTS = Set.of("library.read", "library.write", "agents.read", "agents.run");

    /** What a key without a narrowed set holds: every scope but the explicit grants. */
    public static final List<String> DEFAULTS = ALL.stream().filter(scope -> !EXPLICIT_GRANTS.contains(scope)).toList();

    /** A request may name each scope once; more entries than this cannot be a valid set. */
    static final int MAX_REQUESTED = 100;
    private static final int MAX_ECHOED_LENGTH = 64;

    private ApiKeyScopes() {
    }

    /** The scopes a key holds: its narrowed set, or the defaults when it has none ({@code null}). */
    public static List<String> effective(List<String> narrowed) {
        return narrowed == null ? DEFAULTS : narrowed;
    }

    /**
     * Validates a requested narrowed set and answers it without duplicates, in catalogue order;
     * a 400 names every unknown scope.
     */
    public static List<String> narrow(Collection<String> requested) {
        if (requested.size() > MAX_REQUESTED) {
            throw new InvalidParameter("scopes", "Field 'scopes' must list at most " + ALL.size() + " distinct scope names");
        }
        Set<String> unknown = new LinkedHashSet<>();
        for (String scope : requested) {
            if (scope == null) {
                throw new InvalidParameter("scopes", "Field 'scopes' must be an array of scope names (strings)");
            }
            if (!ALL.contains(scope)) {
                unknown.add(scope.length() > MAX_ECHOED_LENGTH ? scope.substring(0, MAX_ECHOED_LENGTH) + "…" : scope);
            }
        }
        if (!unknown.isEmpty()) {
            throw new InvalidParameter("scopes", "Field 'scopes' has unknown scope" + (unknown.size() > 1 ? "s" : "")
                    + ": " + String.join(", ", unknown) + ". Valid scopes: " + String.join(", ", ALL));
        }
        List<String> ordered = new ArrayList<>();
        for (String scope : ALL) {
            if (requested.contains(scope)) {
                ordered.add(scope);
            }
        }
        return List.copyOf(ordered);
    }
}
