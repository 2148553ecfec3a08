package dev.visibility.auth.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The demo ids that {@code ./suite up} generates (SUITE_DEMO_*, mapped to {@code suite.local.demo.*} by
 * the local profile) reach the seeder: the other services publish the demo data for those projects,
 * so a random id here would leave the demo key's project without data and the examples pointing elsewhere.
 */
class LocalSeedPropertiesTest {

    @Test
    void theDemoIdsOfTheSuiteAreBound() {
        Map<String, String> properties = Map.of(
                "suite.local.seed-file", "/tmp/seed.json",
                "suite.local.demo.account-id", "2f1c22bb-5da8-457d-9867-c0b12d491a08",
                "suite.local.demo.project-id", "5bc01fac-921c-4d88-bfc7-ed0a01e9b761",
                "suite.local.demo.other-project-id", "67c97db6-d888-4da5-8c97-3935ae3ffe81",
                "suite.local.demo.member-id", "eafc0c48-2c6b-4c37-853c-9ab3d41530dc");

        LocalSeedProperties bound = new Binder(new MapConfigurationPropertySource(properties))
                .bind("suite.local", LocalSeedProperties.class).get();

        assertThat(bound.demo()).isEqualTo(new LocalSeedProperties.DemoIds("2f1c22bb-5da8-457d-9867-c0b12d491a08",
                "5bc01fac-921c-4d88-bfc7-ed0a01e9b761", "67c97db6-d888-4da5-8c97-3935ae3ffe81",
                "eafc0c48-2c6b-4c37-853c-9ab3d41530dc"));
        assertThat(bound.seedEnabled()).isTrue();
    }
}
