package dev.visibility.auth.local;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Local mode (profile {@code local}) seeding.
 *
 * @param seedEnabled whether to seed the demo account on a first start (default true)
 * @param seedFile    where to write the seeded credentials as JSON (permissions 600); blank: nowhere
 */
@ConfigurationProperties("suite.local")
public record LocalSeedProperties(Boolean seedEnabled, String seedFile) {

    public LocalSeedProperties {
        seedEnabled = seedEnabled == null || seedEnabled;
    }

    public Path seedPath() {
        return seedFile == null || seedFile.isBlank() ? null : Path.of(seedFile);
    }
}
