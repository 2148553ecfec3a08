package dev.visibility.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

/** The gateway's own configuration locates every service of the route table (local ports 8081–8088). */
class DefaultServiceLocationsTest {

    @Test
    void applicationYmlHasALocationForEveryService() throws IOException {
        List<PropertySource<?>> sources = new YamlPropertySourceLoader().load("application", new ClassPathResource("application.yml"));
        PropertySource<?> yml = sources.get(0);
        for (String service : RouteTable.SERVICES) {
            assertThat(yml.getProperty("suite.services." + service)).as(service).asString().matches("http://127\\.0\\.0\\.1:808[1-8]");
        }
    }
}
