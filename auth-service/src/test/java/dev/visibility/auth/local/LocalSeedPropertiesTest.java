package dev.visibility.auth.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The suite's fixed demo ids (suite.local.demo.*) reach the seeder: other services publish demo data for them. */
class LocalSeedPropertiesTest {

    @Test
    void demoIdsBind() {
        Binder binder = new Binder(new MapConfigurationPropertySource(Map.of(
                "suite.local.seed-file", "/tmp/x.json",
                "suite.local.demo.account-id", "0d7e2631-319e-4ae2-acc3-4fd5d1839b15",
                "suite.local.demo.project-id", "05952ecc-4ee7-4c0c-9554-8ce8388e5744",
                "suite.local.demo.other-project-id", "2f82a25d-752b-4293-8be0-bfc79af3b6c7",
                "suite.local.demo.member-id", "32b3b2d0-fc10-4594-a3cc-2f3d1f849390")));
        LocalSeedProperties properties = binder.bind("suite.local", LocalSeedProperties.class).get();
        assertThat(properties.demo()).isNotNull();
        assertThat(properties.demo().accountId()).isEqualTo("0d7e2631-319e-4ae2-acc3-4fd5d1839b15");
        assertThat(properties.demo().projectId()).isEqualTo("05952ecc-4ee7-4c0c-9554-8ce8388e5744");
        assertThat(properties.demo().otherProjectId()).isEqualTo("2f82a25d-752b-4293-8be0-bfc79af3b6c7");
        assertThat(properties.demo().memberId()).isEqualTo("32b3b2d0-fc10-4594-a3cc-2f3d1f849390");
    }
}
