package dev.visibility.actions.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.actions.action.ActionRepository;
import dev.visibility.platform.events.StringProducer;
import dev.visibility.actions.support.ActionsTest;
import dev.visibility.actions.write.ActionWriteService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.ObjectMapper;

/**
 * The local demo (profile local) with the context's real beans: recommendations through the
 * topic, the team's changes through the write path, every status, ranked and unranked actions.
 */
class LocalDemoDataTest extends ActionsTest {

    @Autowired
    ActionRepository actions;
    @Autowired
    ActionWriteService writes;
    @Autowired
    StringProducer publisher;
    @Autowired
    ObjectMapper mapper;

    @Test
    void demoProjectGetsActionsOfEveryStatusWithAndWithoutRanks() {
        UUID project = UUID.randomUUID();
        new LocalDemoData(project.toString(), "acct-demo", 40, true, actions, writes, publisher, mapper).seed(project);
        // 40 recommendations, one removed by its withdrawal, follow-ups of shipped ones, 12 by the team
        await("follow-ups", () -> actionIdOf(project, "demo-follow-3") != null);
        Map<String, Object> all = data(get(project, "/actions/list?pageSize=100", 200));
        List<Map<String, Object>> items = list(all.get("actions"));
        assertThat(items).extracting(a -> a.get("status")).contains("suggested", "accepted", "live", "archived");
        assertThat(map(all.get("pagination"))).containsEntry("totalCount", 40 - 1 + 4 + 12);
        await("ranks", () -> list(data(get(project, "/actions/list?status=suggested&pageSize=100", 200)).get("actions"))
                .stream().anyMatch(a -> a.get("portfolioRank") != null));
        List<Map<String, Object>> suggested = list(data(get(project, "/actions/list?status=suggested&pageSize=100", 200)).get("actions"));
        assertThat(suggested).anyMatch(a -> a.get("portfolioRank") == null);
        assertThat(items).anyMatch(a -> Boolean.TRUE.equals(a.get("blocked")));
        // spec 6: demo-7 withdrawn before anyone acted (removed); demo-6 withdrawn after the team set its
        // owner (archived as withdrawn): the team's work is done before the withdrawals are published
        assertThat(actionIdOf(project, "demo-7")).isNull();
        String withdrawn = actionIdOf(project, "demo-6");
        assertThat(items).filteredOn(a -> withdrawn.equals(a.get("id"))).extracting(a -> a.get("status")).containsExactly("archived");
        // demo-3 shipped: accepted, then live, in that order
        String shipped = actionIdOf(project, "demo-3");
        assertThat(items).filteredOn(a -> shipped.equals(a.get("id"))).extracting(a -> a.get("status")).containsExactly("live");
        // a second start finds actions and adds none
        new LocalDemoData(project.toString(), "acct-demo", 40, true, actions, writes, publisher, mapper).seed(project);
        assertThat(map(data(get(project, "/actions/list", 200)).get("pagination"))).containsEntry("totalCount", 40 - 1 + 4 + 12);
    }
}
