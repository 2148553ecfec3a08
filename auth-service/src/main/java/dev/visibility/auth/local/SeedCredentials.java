package dev.visibility.auth.local;

/**
 * What the seed file holds. The key and token values appear in that file only: never in a log
 * line, hence the {@link #toString} that leaves them out. {@code defaultScopesApiKey} is a key of
 * the demo project with the default scopes, hence without the explicit grants (spec 5.6: no
 * {@code agents.*}), to contrast with {@code apiKey}, which holds every scope. {@code memberEmail} and
 * {@code memberPassword} sign the demo account's owner in (the dashboard, the OAuth consent page).
 */
public record SeedCredentials(String accountId, String projectId, String apiKey, String otherProjectId,
        String otherApiKey, String adminToken, String defaultScopesApiKey, String memberEmail, String memberPassword) {

    @Override
    public String toString() {
        return "SeedCredentials[accountId=" + accountId + ", projectId=" + projectId + ", otherProjectId="
                + otherProjectId + ", memberEmail=" + memberEmail + "]";
    }
}
