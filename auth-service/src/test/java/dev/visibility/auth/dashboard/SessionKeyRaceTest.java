package dev.visibility.auth.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.visibility.auth.accounts.Plan;
import dev.visibility.auth.support.FormClient;
import dev.visibility.auth.support.TestAccounts;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * One session key per session and project (auth-service README, "Webhooks page"), also when the
 * first visits of one session come at once (two tabs, a double click): before the session's mutex
 * ({@link SessionMutex}) each of them could create a key, and all but one stayed active, held by
 * nobody, until the sweep (up to 8 h).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SessionKeyRaceTest {

    private static final int VISITS = 8;

    @LocalServerPort
    int port;
    @Autowired
    TestAccounts accounts;
    @Autowired
    JdbcClient jdbc;

    @Test
    void concurrentFirstVisitsOfOneSessionCreateOneKey() throws Exception {
        TestAccounts.Team team = accounts.team(Plan.PLUS);
        String session = accounts.signedIn(port, team.ownerId()).cookie("AUTH_SESSION");
        assertThat(session).as("the session cookie").isNotBlank();
        String page = "/dashboard/projects/" + team.projectId() + "/webhooks";

        CountDownLatch ready = new CountDownLatch(VISITS);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(VISITS);
        try {
            List<Future<Integer>> visits = new ArrayList<>();
            for (int i = 0; i < VISITS; i++) {
                // a client (and connection) of its own per visit, all with the one session's cookie
                FormClient tab = new FormClient("http://localhost:" + port).header("Cookie", "AUTH_SESSION=" + session);
                visits.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return tab.get(page).status();
                }));
            }
            assertThat(ready.await(10, TimeUnit.SECONDS)).as("all visitors ready").isTrue();
            go.countDown();
            for (Future<Integer> visit : visits) {
                // no gateway listens in this module's tests: every visit is the 503 page, after the key is made
                assertThat(visit.get(30, TimeUnit.SECONDS)).isEqualTo(503);
            }
        } finally {
            pool.shutdownNow();
        }

        List<Boolean> revoked = jdbc.sql("SELECT revoked_at IS NOT NULL FROM api_keys WHERE project_id = :project AND name = :name")
                .param("project", team.projectId()).param("name", SessionApiKeys.NAME).query(Boolean.class).list();
        assertThat(revoked).as("the session's keys: one, active").containsExactly(false);
    }
}
