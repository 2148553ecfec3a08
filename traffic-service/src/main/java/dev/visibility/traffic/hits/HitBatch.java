package dev.visibility.traffic.hits;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.TrafficHitObserved;

/**
 * One batch of hits folded into the rows it changes, so that the database sees each key once per
 * batch: event counts per (scope, day), the latest day per (scope, session) for any hit, bot hits and
 * referral hits, the latest accepted hit per source and per (source, hostname), and 404s per (day,
 * hostname, path, crawler). Days are UTC days, as epoch day numbers.
 */
final class HitBatch {

    /** What a 404 aggregate keeps of a path at most (the rest is cut). */
    static final int MAX_NOT_FOUND_PATH = 512;

    // The two keys every hit makes five of each: equals and hashCode written out, which the JIT
    // compiles into the maps' code, instead of the records' generated ones (method handle chains
    // that stayed visible in the ingesting JVM's samples, bench/TrafficBench.md).

    record ScopeDay(UUID project, String hostname, String prefix, int day) {

        @Override
        public boolean equals(Object other) {
            return other instanceof ScopeDay o && day == o.day && project.equals(o.project) && prefix.equals(o.prefix)
                    && hostname.equals(o.hostname);
        }

        @Override
        public int hashCode() {
            return ((project.hashCode() * 31 + hostname.hashCode()) * 31 + prefix.hashCode()) * 31 + day;
        }
    }

    record ScopeSession(UUID project, String hostname, String prefix, String session) {

        @Override
        public boolean equals(Object other) {
            return other instanceof ScopeSession o && session.equals(o.session) && project.equals(o.project)
                    && prefix.equals(o.prefix) && hostname.equals(o.hostname);
        }

        @Override
        public int hashCode() {
            return ((project.hashCode() * 31 + hostname.hashCode()) * 31 + prefix.hashCode()) * 31 + session.hashCode();
        }
    }

    record Source(UUID project, String source) {
    }

    record SourceHost(UUID project, String source, String hostname) {
    }

    record NotFound(UUID project, int day, String hostname, String path, String botName) {
    }

    /** total, bot, referral events; then (after {@link #fold}) the moves of the sessions, bot sessions and referral sessions histograms */
    final Map<ScopeDay, long[]> counts = new HashMap<>();
    /** last day, last bot day, last referral day; {@link #NONE} for none */
    final Map<ScopeSession, int[]> sessions = new HashMap<>();
    final Map<Source, Long> sources = new HashMap<>();
    final Map<SourceHost, Long> hostnames = new HashMap<>();
    final Map<NotFound, long[]> notFound = new HashMap<>();
    /** after {@link #fold}: session scopes without a row, and those whose row moves, by key with their last days */
    final List<Map.Entry<UUID, int[]>> newSessions = new ArrayList<>();
    final List<Map.Entry<UUID, int[]>> movedSessions = new ArrayList<>();

    static final int NONE = Integer.MIN_VALUE;

    static HitBatch of(List<TrafficHitObserved> hits, Instant now) {
        HitBatch batch = new HitBatch();
        long nowMillis = now.toEpochMilli();
        for (TrafficHitObserved hit : hits) {
            batch.add(hit, nowMillis);
        }
        return batch;
    }

    private void add(TrafficHitObserved hit, long nowMillis) {
        String hostname = hit.hostname().toLowerCase(Locale.ROOT);
        int day = (int) hit.observedAt().atZone(ZoneOffset.UTC).toLocalDate().toEpochDay();
        int bot = hit.isBot() ? day : NONE;
        int referral = hit.isReferral() ? day : NONE;
        count(new ScopeDay(hit.projectId(), Scopes.PROJECT, Scopes.ROOT, day), hit);
        session(new ScopeSession(hit.projectId(), Scopes.PROJECT, Scopes.ROOT, hit.sessionId()), day, bot, referral);
        for (String prefix : Scopes.prefixes(hit.path())) {
            count(new ScopeDay(hit.projectId(), hostname, prefix, day), hit);
            session(new ScopeSession(hit.projectId(), hostname, prefix, hit.sessionId()), day, bot, referral);
        }
        // accepted now: an observation from a drifting clock counts as made at acceptance at the latest
        long accepted = Math.min(hit.observedAt().toEpochMilli(), nowMillis);
        sources.merge(new Source(hit.projectId(), hit.source()), accepted, Math::max);
        hostnames.merge(new SourceHost(hit.projectId(), hit.source(), hostname), accepted, Math::max);
        if (hit.status() == 404) {
            String path = pathOnly(hit.path());
            notFound.computeIfAbsent(new NotFound(hit.projectId(), day, hostname, path,
                    hit.botName() == null ? "" : hit.botName()), k -> new long[1])[0]++;
        }
    }

    private void count(ScopeDay key, TrafficHitObserved hit) {
        long[] c = counts.computeIfAbsent(key, k -> new long[6]);
        c[0]++;
        if (hit.isBot()) {
            c[1]++;
        }
        if (hit.isReferral()) {
            c[2]++;
        }
    }

    private void session(ScopeSession key, int day, int bot, int referral) {
        int[] d = sessions.get(key);
        if (d == null) {
            sessions.put(key, new int[] {day, bot, referral});
        } else {
            d[0] = Math.max(d[0], day);
            d[1] = Math.max(d[1], bot);
            d[2] = Math.max(d[2], referral);
        }
    }

    /**
     * Compares the batch's session scopes with their stored last days ({@code stored[i]} for
     * {@code keys.sorted[i]}; null for a new one): collects the new and the moved rows (in key order),
     * and adds to the histogram columns of {@link #counts} what moves: a session whose last day goes
     * from D1 to D2 leaves D1's row (-1) and joins D2's (+1); a new one only joins (likewise for the
     * last bot and referral days). Answers how many session scopes are new or moved.
     */
    long fold(SessionKeys keys, int[][] stored) {
        long moved = 0;
        for (int i = 0; i < keys.sorted.length; i++) {
            int[] batch = keys.days[i];
            int[] old = stored[i];
            int[] next = old == null ? batch
                    : new int[] {Math.max(old[0], batch[0]), Math.max(old[1], batch[1]), Math.max(old[2], batch[2])};
            boolean changed = false;
            for (int c = 0; c < 3; c++) {
                int before = old == null ? NONE : old[c];
                if (before != next[c]) {
                    changed = true;
                    if (next[c] != NONE) {
                        histogram(keys.scopes[i], next[c], c, 1);
                    }
                    if (before != NONE) {
                        histogram(keys.scopes[i], before, c, -1);
                    }
                }
            }
            if (old == null) {
                newSessions.add(Map.entry(keys.sorted[i], next));
                moved++;
            } else if (changed) {
                movedSessions.add(Map.entry(keys.sorted[i], next));
                moved++;
            }
        }
        return moved;
    }

    private void histogram(ScopeSession scope, int day, int column, int delta) {
        counts.computeIfAbsent(new ScopeDay(scope.project(), scope.hostname(), scope.prefix(), day), k -> new long[6])[3 + column]
                += delta;
    }

    static String pathOnly(String path) {
        int end = path.length();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        return path.substring(0, Math.min(end, MAX_NOT_FOUND_PATH));
    }
}
