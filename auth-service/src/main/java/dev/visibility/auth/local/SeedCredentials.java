package dev.visibility.auth.local;

/**
 * What the seed file holds. The key and token values appear in that file only: never in a log
 * line, hence the {@link #toString} that leaves them out.
 */
public record SeedCredentials(String accountId, String projectId, String apiKey, String otherProjectId,
        String otherApiKey, String adminToken) {

    @Override
    public String toString() {
        return "SeedCredentials[accountId=" + accountId + ", projectId=" + projectId + ", otherProjectId="
                + otherProjectId + "]";
    }
}
