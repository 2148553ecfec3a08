package dev.visibility.outcomes.demo;

import java.util.UUID;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Local demo data (profile {@code local}): measured windows published through
 * {@code outcomes.measurements} for the demo project, once, when it has no intervention yet.
 *
 * @param enabled         whether to publish the demo at all
 * @param projectId       the demo project (it gets the interventions)
 * @param otherProjectId  the second demo project (no interventions: E7 shows its emptyState)
 * @param accountId       the account both projects belong to
 * @param interventions   how many interventions to publish, spread over the last year
 * @param actionWait      how long to wait for the demo project's action events before publishing
 */
@ConfigurationProperties("suite.demo")
public record DemoProperties(Boolean enabled, UUID projectId, UUID otherProjectId, String accountId, Integer interventions,
        java.time.Duration actionWait) {

    public DemoProperties {
        enabled = enabled != null && enabled;
        interventions = interventions == null ? 180 : interventions;
        actionWait = actionWait == null ? java.time.Duration.ofMinutes(4) : actionWait;
    }

    public boolean configured() {
        return enabled && projectId != null;
    }
}
