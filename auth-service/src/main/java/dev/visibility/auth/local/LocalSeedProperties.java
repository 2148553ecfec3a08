package dev.visibility.auth.local;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;

/**
 * Local mode (profile {@code local}) seeding.
 *
 * @param seedEnabled whether to seed the demo account on a first start (default true)
 * @param seedFile    where to write the seeded credentials as JSON (permissions 600); blank: nowhere
 * @param demo        fixed ids of the demo account and projects ({@code suite.local.demo.*}); the suite
 *                    generates them once and gives them to every service, so that the services that
 *                    publish demo data know the projects before auth-service has seeded them
 */
@ConfigurationProperties("suite.local")
public record LocalSeedProperties(Boolean seedEnabled, String seedFile, DemoIds demo) {

    /**
     * Each id may be blank: a random one is used then. {@code memberId} is the demo account's owner,
     * who creates the demo keys (agents-service's demo threads belong to this member, issue 19).
     */
    public record DemoIds(String accountId, String projectId, String otherProjectId, String memberId) {

        /** The one Boot binds (with a second constructor, it would bind none, and the ids would be lost). */
        @ConstructorBinding
        public DemoIds {
        }

        public DemoIds(String accountId, String projectId, String otherProjectId) {
            this(accountId, projectId, otherProjectId, null);
        }

        static java.util.UUID idOr(String value) {
            return value == null || value.isBlank() ? java.util.UUID.randomUUID() : java.util.UUID.fromString(value);
        }
    }

    public LocalSeedProperties {
        seedEnabled = seedEnabled == null || seedEnabled;
    }

    public Path seedPath() {
        return seedFile == null || seedFile.isBlank() ? null : Path.of(seedFile);
    }
}
