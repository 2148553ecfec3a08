package dev.visibility.traffic.demo;

import java.nio.file.Path;
import java.util.UUID;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Local demo data (profile {@code local}): published through {@code traffic.config},
 * {@code traffic.hits} and {@code adoption.metrics} when the demo project is named and has no
 * traffic configuration yet.
 *
 * @param enabled        whether to publish the demo at all
 * @param projectId      the demo project (90 days of hits on two hostnames, 404s, adoption samples)
 * @param otherProjectId the second demo project (a smaller site, to prove isolation)
 * @param days           how many days of hits to publish, ending today
 * @param examplesFile   where to write ready-to-paste example paths for E4, E5 and E11 (JSON); blank: nowhere
 */
@ConfigurationProperties("suite.demo")
public record DemoProperties(Boolean enabled, UUID projectId, UUID otherProjectId, Integer days, String examplesFile) {

    public DemoProperties {
        enabled = enabled != null && enabled;
        days = days == null ? 90 : days;
    }

    public boolean configured() {
        return enabled && projectId != null;
    }

    public Path examplesPath() {
        return examplesFile == null || examplesFile.isBlank() ? null : Path.of(examplesFile);
    }
}
