package dev.visibility.visibility.demo;

import java.nio.file.Path;
import java.util.UUID;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Local demo data (profile {@code local}): published through {@code tracking.runs} and
 * {@code agentpicks.runs} when the demo project and account are named and the project has no
 * tracking run yet.
 *
 * @param enabled         whether to publish the demo at all
 * @param projectId       the demo project (it gets tracking runs, responses and agent-picks tests)
 * @param otherProjectId  the second demo project (tracking runs and responses, to prove isolation)
 * @param accountId       the account both projects belong to
 * @param days            how many days of daily tracking runs to publish, ending yesterday
 * @param examplesFile    where to write ready-to-paste example paths for E1 and E12 (JSON); blank: nowhere
 */
@ConfigurationProperties("suite.demo")
public record DemoProperties(Boolean enabled, UUID projectId, UUID otherProjectId, String accountId, Integer days,
        String examplesFile) {

    public DemoProperties {
        enabled = enabled != null && enabled;
        days = days == null ? 120 : days;
    }

    public boolean configured() {
        return enabled && projectId != null && accountId != null && !accountId.isBlank();
    }

    public Path examplesPath() {
        return examplesFile == null || examplesFile.isBlank() ? null : Path.of(examplesFile);
    }
}
