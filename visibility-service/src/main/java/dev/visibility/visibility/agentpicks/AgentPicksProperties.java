package dev.visibility.visibility.agentpicks;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param toolCatalog the package and tool names E1 may show (E1 rule 4: packages must match the
 *                    configured tool catalog); compared case-insensitively. Everything else is
 *                    withheld with its flag. Empty by default: every package is withheld.
 */
@ConfigurationProperties("suite.agent-picks")
public record AgentPicksProperties(List<String> toolCatalog) {

    public AgentPicksProperties {
        toolCatalog = toolCatalog == null ? List.of() : List.copyOf(toolCatalog);
    }

    public Set<String> catalog() {
        return toolCatalog.stream().filter(name -> name != null && !name.isBlank())
                .map(name -> name.trim().toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
    }
}
