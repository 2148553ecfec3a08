package dev.visibility.agents.demo;

import java.nio.file.Path;
import java.util.UUID;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Local demo data (profile {@code local}), published through {@code agents.runs} and
 * {@code agents.threads} when the demo project is named and has no run yet.
 *
 * @param enabled      whether to publish the demo at all
 * @param projectId    the demo project (its runs and threads)
 * @param memberId     the demo account's owner, who created the demo keys: they own the demo threads
 *                     E9 and E10 work on; without it no threads are published
 * @param examplesFile where to write ready-to-paste example paths for E8, E9 and E10 (JSON); blank: nowhere
 */
@ConfigurationProperties("suite.demo")
public record DemoProperties(Boolean enabled, UUID projectId, UUID memberId, String examplesFile) {

    public DemoProperties {
        enabled = enabled != null && enabled;
    }

    public boolean configured() {
        return enabled && projectId != null;
    }

    public Path examplesPath() {
        return examplesFile == null || examplesFile.isBlank() ? null : Path.of(examplesFile);
    }
}
