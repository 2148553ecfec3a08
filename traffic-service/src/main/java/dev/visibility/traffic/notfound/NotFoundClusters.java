package dev.visibility.traffic.notfound;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Clusters the 404 paths of one project's window (spec 2.11). A path that matches a scanner probe
 * (WordPress admin and login paths, {@code .env} files, {@code .php} scripts, version-control and
 * credential files, admin consoles, backups) falls in the suspected-noise cluster of its probe
 * family; any other path falls in the content-intent cluster of its first two segments (lower
 * case, a trailing {@code .html}/{@code .htm}/{@code .md}/{@code .mdx} dropped, id-like segments
 * as {@code *}): {@code /docs/api/webhooks/retries} and {@code /docs/api/rate-limits} make one
 * cluster {@code /docs/api}.
 */
public final class NotFoundClusters {

    public static final String CONTENT_INTENT = "content_intent";
    public static final String SUSPECTED_NOISE = "suspected_noise";
    static final int SAMPLE_PATHS = 5;
    /** Clusters listed per classification at most (the totals count them all). */
    static final int MAX_LISTED = 100;

    /** Probe families in the order they are tried; the first that matches names the cluster. */
    static final Map<String, Pattern> NOISE = new LinkedHashMap<>();

    static {
        NOISE.put("wordpress", Pattern.compile("(^|/)(wp-admin|wp-login\\.php|wp-content|wp-includes|wp-json|xmlrpc\\.php|wordpress)(/|$)"));
        NOISE.put("dotenv", Pattern.compile("(^|/)[^/]*\\.env([./]|$)|(^|/)\\.env"));
        NOISE.put("vcs-and-credentials", Pattern.compile("(^|/)(\\.git|\\.svn|\\.hg|\\.aws|\\.ssh|\\.docker|\\.htpasswd|\\.htaccess|\\.ds_store|id_rsa)(/|$)"));
        NOISE.put("php", Pattern.compile("\\.php[0-9]?(/|$)|(^|/)(phpmyadmin|pma|phpinfo)(/|$)"));
        NOISE.put("admin-consoles", Pattern.compile("(^|/)(cgi-bin|administrator|actuator|server-status|solr|jenkins|manager/html|boaform|hnap1|vendor/phpunit)(/|$)|\\.(asp|aspx|jsp|cgi|do|action)$"));
        NOISE.put("backups-and-dumps", Pattern.compile("\\.(sql|bak|old|backup|swp|tar|tgz|gz|zip|rar|7z)$|~$"));
    }

    private static final Pattern DOC_EXTENSION = Pattern.compile("\\.(html?|mdx?)$");
    private static final Pattern ID_LIKE = Pattern.compile("[0-9]+|[0-9a-f]{8,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    /** One aggregated input row: a path's 404s from one crawler ('' for referred visitors) in the current and prior window. */
    public record PathCount(String path, String botName, long current, long prior) {
    }

    public record Relevance(String category, String reason) {
    }

    /** A cluster record of spec 2.11. */
    public record Cluster(String clusterKey, String demandClassification, long distinctBots, String id,
            long priorRequestCount, long requestCount, long totalClusterCount, long totalRequestCount,
            String representativePath, List<String> samplePaths, String status, LocalDate windowStart,
            LocalDate windowEnd, Relevance relevance) {
    }

    public record Result(List<Cluster> clusters, List<Cluster> suspectedNoiseClusters, long clusterCount, long requestCount) {
    }

    private NotFoundClusters() {
    }

    /** The family of a scanner probe, or null for a path that is not one. */
    public static String noiseFamily(String path) {
        String lower = path.toLowerCase(Locale.ROOT);
        for (Map.Entry<String, Pattern> family : NOISE.entrySet()) {
            if (family.getValue().matcher(lower).find()) {
                return family.getKey();
            }
        }
        return null;
    }

    /** The cluster key of a path: {@code noise:<family>} or its content-intent key. */
    public static String clusterKey(String path) {
        String family = noiseFamily(path);
        if (family != null) {
            return "noise:" + family;
        }
        List<String> parts = new ArrayList<>();
        for (String segment : path.toLowerCase(Locale.ROOT).split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            String s = DOC_EXTENSION.matcher(segment).replaceFirst("");
            parts.add(ID_LIKE.matcher(s).matches() ? "*" : s);
            if (parts.size() == 2) {
                break;
            }
        }
        return "/" + String.join("/", parts);
    }

    public static Result cluster(UUID project, List<PathCount> rows, LocalDate windowStart, LocalDate windowEnd,
            int relevantMinRequests) {
        Map<String, Acc> byKey = new HashMap<>();
        for (PathCount row : rows) {
            String key = clusterKey(row.path());
            Acc acc = byKey.computeIfAbsent(key, Acc::new);
            acc.prior += row.prior();
            if (row.current() > 0) {
                acc.current += row.current();
                acc.paths.merge(row.path(), row.current(), Long::sum);
                if (row.botName().isEmpty()) {
                    acc.referredRequests += row.current();
                } else {
                    acc.bots.add(row.botName());
                }
            }
        }
        List<Acc> current = byKey.values().stream().filter(a -> a.current > 0).toList();
        long clusterCount = current.size();
        long requestCount = current.stream().mapToLong(a -> a.current).sum();
        Comparator<Acc> order = Comparator.comparingLong((Acc a) -> -a.current).thenComparing(a -> a.key);
        List<Cluster> content = new ArrayList<>();
        List<Cluster> noise = new ArrayList<>();
        for (Acc acc : current.stream().sorted(order).toList()) {
            boolean isNoise = acc.key.startsWith("noise:");
            List<String> samples = acc.paths.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed()
                            .thenComparing(e -> e.getKey().length()).thenComparing(Map.Entry::getKey))
                    .limit(SAMPLE_PATHS).map(Map.Entry::getKey).toList();
            Relevance relevance;
            if (isNoise) {
                relevance = new Relevance("noise", "paths match scanner probes (" + acc.key.substring(6) + "), not content");
            } else if (acc.current >= relevantMinRequests) {
                relevance = new Relevance("relevant", "requested " + acc.current + " times in the window by "
                        + acc.bots.size() + " AI crawler(s)" + (acc.referred() ? " and referred visitors" : ""));
            } else {
                relevance = new Relevance("low_volume", "requested " + acc.current + " times in the window, fewer than "
                        + relevantMinRequests);
            }
            Cluster cluster = new Cluster(acc.key, isNoise ? SUSPECTED_NOISE : CONTENT_INTENT, acc.bots.size(),
                    UUID.nameUUIDFromBytes((project + ":404:" + acc.key).getBytes(StandardCharsets.UTF_8)).toString(),
                    acc.prior, acc.current, clusterCount, requestCount, samples.get(0), samples,
                    acc.prior == 0 ? "new" : "recurring", windowStart, windowEnd, relevance);
            List<Cluster> target = isNoise ? noise : content;
            if (target.size() < MAX_LISTED) {
                target.add(cluster);
            }
        }
        return new Result(content, noise, clusterCount, requestCount);
    }

    private static final class Acc {
        final String key;
        long current;
        long prior;
        final Map<String, Long> paths = new HashMap<>();
        final Set<String> bots = new HashSet<>();
        long referredRequests;

        Acc(String key) {
            this.key = key;
        }

        boolean referred() {
            return referredRequests > 0;
        }
    }
}
