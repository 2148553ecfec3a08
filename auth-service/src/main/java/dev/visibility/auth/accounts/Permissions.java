package dev.visibility.auth.accounts;

import java.util.List;

/** Per-project member permissions. */
public final class Permissions {

    /** See the project and its API keys (without secrets). */
    public static final String PROJECT_VIEW = "project.view";
    /** Create and revoke API keys, manage webhooks (spec 5.3, 5.11). */
    public static final String SETTINGS_MANAGE = "settings.manage";

    /** Every permission, in a stable order: what an account owner holds. */
    public static final List<String> ALL = List.of(PROJECT_VIEW, SETTINGS_MANAGE);

    private Permissions() {
    }
}
