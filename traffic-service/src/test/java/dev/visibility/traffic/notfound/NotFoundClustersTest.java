package dev.visibility.traffic.notfound;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The cluster key of a 404 path: scanner probes by family, content by its first two segments. */
class NotFoundClustersTest {

    @Test
    void scannerProbesAreNoiseByFamily() {
        assertThat(NotFoundClusters.clusterKey("/wp-admin/install.php")).isEqualTo("noise:wordpress");
        assertThat(NotFoundClusters.clusterKey("/blog/wp-login.php")).isEqualTo("noise:wordpress");
        assertThat(NotFoundClusters.clusterKey("/.env")).isEqualTo("noise:dotenv");
        assertThat(NotFoundClusters.clusterKey("/app/.env.production")).isEqualTo("noise:dotenv");
        assertThat(NotFoundClusters.clusterKey("/.git/config")).isEqualTo("noise:vcs-and-credentials");
        assertThat(NotFoundClusters.clusterKey("/index.php")).isEqualTo("noise:php");
        assertThat(NotFoundClusters.clusterKey("/phpmyadmin/")).isEqualTo("noise:php");
        assertThat(NotFoundClusters.clusterKey("/cgi-bin/luci")).isEqualTo("noise:admin-consoles");
        assertThat(NotFoundClusters.clusterKey("/backup.sql")).isEqualTo("noise:backups-and-dumps");
    }

    @Test
    void contentPathsClusterByTheirFirstTwoSegments() {
        assertThat(NotFoundClusters.clusterKey("/docs/api/webhooks/retries")).isEqualTo("/docs/api");
        assertThat(NotFoundClusters.clusterKey("/Docs/API.html")).isEqualTo("/docs/api");
        assertThat(NotFoundClusters.clusterKey("/pricing")).isEqualTo("/pricing");
        assertThat(NotFoundClusters.clusterKey("/orders/12345/receipt")).isEqualTo("/orders/*");
        assertThat(NotFoundClusters.clusterKey("/")).isEqualTo("/");
        // environment in a word is no .env probe
        assertThat(NotFoundClusters.clusterKey("/docs/environments")).isEqualTo("/docs/environments");
    }
}
