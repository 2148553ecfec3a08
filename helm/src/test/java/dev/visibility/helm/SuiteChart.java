package dev.visibility.helm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import org.yaml.snakeyaml.Yaml;

/**
 * The chart under {@code helm/suite}, driven through real Helm (helm-java's native library).
 * Every render starts from {@code ci/default-values.yaml}, the smallest set of values an install
 * needs, and layers the test's own YAML over it.
 */
final class SuiteChart {

    static final Path DIR = Path.of(System.getProperty("chart.dir", "suite")).toAbsolutePath();
    static final Path WORK = Path.of(System.getProperty("chart.workDir", "target/chart-work")).toAbsolutePath();
    static final Path REQUIRED_VALUES = DIR.resolve("ci/default-values.yaml");

    static final String RELEASE = "suite";
    static final String NAMESPACE = "apps";
    /** helm-java renders for Kubernetes v1.20 unless told otherwise; the chart needs 1.25 or later. */
    static final String KUBE_VERSION = "1.31.0";

    /** The services of DESIGN.md, "Modules", each one Deployment and one Service. */
    static final List<String> SERVICES = List.of("gateway", "auth-service", "visibility-service", "actions-service",
            "outcomes-service", "traffic-service", "agents-service", "webhook-service", "mcp-service");

    private SuiteChart() {
    }

    /** Renders the chart as release {@value #RELEASE} with the required values and then {@code overrides}. */
    static Manifests render(String... overrides) {
        return renderAs(RELEASE, overrides);
    }

    static Manifests renderAs(String release, String... overrides) {
        TemplateCommand template = new Helm(DIR).template()
                .withName(release)
                .withNamespace(NAMESPACE)
                .withKubeVersion(KUBE_VERSION)
                .withValuesFile(REQUIRED_VALUES);
        for (String override : overrides) {
            template = template.withValuesFile(write(override));
        }
        return Manifests.parse(template.call());
    }

    /** Lints a copy of the chart whose values.yaml already holds the required values and then {@code overrides}. */
    static LintResult lintWithRequiredValues(String... overrides) {
        Path copy = copyChart();
        Map<String, Object> values = merge(load(DIR.resolve("values.yaml")), load(REQUIRED_VALUES));
        for (String override : overrides) {
            values = merge(values, load(write(override)));
        }
        writeString(copy.resolve("values.yaml"), new Yaml().dump(values));
        return new Helm(copy).lint().strict().call();
    }

    /** Lints the chart exactly as it is checked in. */
    static LintResult lintAsIs() {
        return new Helm(DIR).lint().strict().call();
    }

    static Path write(String yaml) {
        Path file = work().resolve("values-" + UUID.randomUUID() + ".yaml");
        writeString(file, yaml);
        return file;
    }

    private static Path copyChart() {
        Path target = work().resolve("chart-" + UUID.randomUUID()).resolve("suite");
        try (Stream<Path> files = Files.walk(DIR)) {
            for (Path source : (Iterable<Path>) files::iterator) {
                Path destination = target.resolve(DIR.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(destination);
                } else {
                    Files.copy(source, destination);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }

    private static Path work() {
        try {
            return Files.createDirectories(WORK);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeString(Path file, String content) {
        try {
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Object> load(Path file) {
        try {
            Map<String, Object> values = new Yaml().load(Files.readString(file));
            return values == null ? new LinkedHashMap<>() : values;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Helm's own rule for values files: maps merge key by key, anything else is replaced. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> merge(Map<String, Object> base, Map<String, Object> over) {
        Map<String, Object> merged = new LinkedHashMap<>(base);
        over.forEach((key, value) -> {
            Object current = merged.get(key);
            if (current instanceof Map && value instanceof Map) {
                merged.put(key, merge((Map<String, Object>) current, (Map<String, Object>) value));
            } else {
                merged.put(key, value);
            }
        });
        return merged;
    }

    /** The documents Helm rendered, parsed with SnakeYAML. */
    record Manifests(List<Map<String, Object>> documents) {

        @SuppressWarnings("unchecked")
        static Manifests parse(String rendered) {
            List<Map<String, Object>> documents = new ArrayList<>();
            for (Object document : new Yaml().loadAll(rendered)) {
                if (document != null) {
                    documents.add((Map<String, Object>) document);
                }
            }
            return new Manifests(documents);
        }

        List<Map<String, Object>> ofKind(String kind) {
            return documents.stream().filter(document -> kind.equals(document.get("kind"))).toList();
        }

        Map<String, Object> get(String kind, String name) {
            return ofKind(kind).stream()
                    .filter(document -> name.equals(Node.string(document, "metadata.name")))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + kind + " named " + name + " in " + names(kind)));
        }

        /** The resource of one service, named {@code <release>-<service>} for release {@value #RELEASE}. */
        Map<String, Object> ofService(String kind, String service) {
            return get(kind, RELEASE + "-" + service);
        }

        List<String> names(String kind) {
            return ofKind(kind).stream().map(document -> Node.string(document, "metadata.name")).toList();
        }

        /** The first (only) container of a service's Deployment. */
        Map<String, Object> container(String service) {
            return Node.map(ofService("Deployment", service), "spec.template.spec.containers.0");
        }

        /** The container's environment, name to the entry (value or valueFrom). */
        Map<String, Map<String, Object>> env(String service) {
            Map<String, Map<String, Object>> env = new LinkedHashMap<>();
            for (Map<String, Object> entry : Node.maps(container(service), "env")) {
                env.put((String) entry.get("name"), entry);
            }
            return env;
        }
    }

    /** Reads rendered YAML by dotted paths; a number selects a list element ({@code containers.0}). */
    static final class Node {

        private Node() {
        }

        static Object at(Object node, String path) {
            Object current = node;
            for (String step : path.split("\\.")) {
                if (current instanceof Map<?, ?> map) {
                    current = map.get(step);
                } else if (current instanceof List<?> list && step.matches("\\d+")) {
                    int index = Integer.parseInt(step);
                    current = index < list.size() ? list.get(index) : null;
                } else {
                    return null;
                }
            }
            return current;
        }

        static String string(Object node, String path) {
            Object value = at(node, path);
            return value == null ? null : value.toString();
        }

        @SuppressWarnings("unchecked")
        static Map<String, Object> map(Object node, String path) {
            Object value = at(node, path);
            if (!(value instanceof Map)) {
                throw new AssertionError("no map at " + path + " (found " + value + ")");
            }
            return (Map<String, Object>) value;
        }

        @SuppressWarnings("unchecked")
        static List<Map<String, Object>> maps(Object node, String path) {
            Object value = at(node, path);
            if (!(value instanceof List)) {
                throw new AssertionError("no list at " + path + " (found " + value + ")");
            }
            return (List<Map<String, Object>>) value;
        }
    }
}
