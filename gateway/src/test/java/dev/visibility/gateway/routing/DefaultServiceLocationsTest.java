package dev.visibility.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;

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

    /**
     * A location without an http(s) scheme and a host is refused when the routes are built, instead of failing every
     * request of the service's routes with a 500 (two values for one service, joined with a comma, gave such a URI).
     */
    @Test
    void aLocationThatIsNotAnOriginIsRefusedAtStart() {
        RoutingConfiguration.ServiceLocations ok = new RoutingConfiguration.ServiceLocations(
                Map.of("auth-service", URI.create("http://127.0.0.1:8081"), "visibility-service", URI.create("https://visibility.internal/")));
        assertThat(ok.uriOf("auth-service")).hasPort(8081);
        assertThat(ok.uriOf("visibility-service")).hasHost("visibility.internal");
        for (String bad : List.of("http://127.0.0.1:8083,http://127.0.0.1:9999", "localhost:8083", "ftp://host:21",
                "http:///8083", "http://under_score:8083")) {
            RoutingConfiguration.ServiceLocations locations = new RoutingConfiguration.ServiceLocations(
                    Map.of("actions-service", URI.create(bad)));
            assertThatThrownBy(() -> locations.uriOf("actions-service")).as(bad)
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("suite.services.actions-service");
        }
        assertThatThrownBy(() -> new RoutingConfiguration.ServiceLocations(Map.of()).uriOf("mcp-service"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("No location configured for mcp-service");
    }
}
