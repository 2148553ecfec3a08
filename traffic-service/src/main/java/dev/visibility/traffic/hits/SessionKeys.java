package dev.visibility.traffic.hits;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.UUID;

/**
 * The 128-bit keys of a batch's session scopes ({@code traffic_sessions.key}): md5 of
 * {@code projectId ':' bytes(hostname) ':' hostname ':' bytes(prefix) ':' prefix ':' sessionId} (UTF-8;
 * lengths in bytes, so that no two scopes spell one text) read as a uuid, as migration V3 computes
 * it in SQL for the rows it converted.
 */
final class SessionKeys {

    /** PostgreSQL's uuid order (bytewise): the order in which the batch looks keys up and inserts them. */
    static final Comparator<UUID> ORDER = (a, b) -> {
        // without Comparator.comparing's boxing of both halves on every comparison (the batch sorts
        // thousands of keys; the boxing was 4.5 % of the ingesting JVM's samples, bench/TrafficBench.md)
        int high = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return high != 0 ? high : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    };

    final HitBatch.ScopeSession[] scopes;
    /** the key of {@code scopes[i]} */
    final UUID[] keys;
    /** last day, last bot day, last referral day of {@code scopes[i]} in the batch */
    final int[][] days;
    /** the distinct keys in {@link #ORDER} */
    final UUID[] sorted;

    private SessionKeys(HitBatch.ScopeSession[] scopes, UUID[] keys, int[][] days) {
        this.scopes = scopes;
        this.keys = keys;
        this.days = days;
        this.sorted = Arrays.stream(keys).distinct().sorted(ORDER).toArray(UUID[]::new);
    }

    static SessionKeys of(HitBatch batch) {
        MessageDigest md5 = md5();
        int n = batch.sessions.size();
        HitBatch.ScopeSession[] scopes = new HitBatch.ScopeSession[n];
        UUID[] keys = new UUID[n];
        int[][] days = new int[n][];
        int i = 0;
        StringBuilder text = new StringBuilder(128);
        for (Map.Entry<HitBatch.ScopeSession, int[]> e : batch.sessions.entrySet()) {
            scopes[i] = e.getKey();
            keys[i] = key(md5, text, e.getKey());
            days[i] = e.getValue();
            i++;
        }
        return new SessionKeys(scopes, keys, days);
    }

    static UUID key(HitBatch.ScopeSession scope) {
        return key(md5(), new StringBuilder(), scope);
    }

    private static UUID key(MessageDigest md5, StringBuilder text, HitBatch.ScopeSession scope) {
        text.setLength(0);
        text.append(scope.project()).append(':').append(utf8Length(scope.hostname())).append(':').append(scope.hostname())
                .append(':').append(utf8Length(scope.prefix())).append(':').append(scope.prefix()).append(':')
                .append(scope.session());
        ByteBuffer digest = ByteBuffer.wrap(md5.digest(text.toString().getBytes(StandardCharsets.UTF_8)));
        return new UUID(digest.getLong(), digest.getLong());
    }

    /** The length of {@code s} in UTF-8 bytes. */
    static int utf8Length(String s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                bytes += 1; // an unpaired surrogate becomes '?'
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has MD5", e);
        }
    }
}
