package dev.visibility.traffic.hits;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The 128-bit keys of a batch's session scopes ({@code traffic_sessions.key}), in key order: md5 of
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

    /** The batch's session scopes, in {@link #ORDER} of their keys. */
    final HitBatch.ScopeSession[] scopes;
    /** the key of {@code scopes[i]}, ascending in {@link #ORDER} */
    final UUID[] sorted;
    /** last day, last bot day, last referral day of {@code scopes[i]} in the batch */
    final int[][] days;

    private SessionKeys(HitBatch.ScopeSession[] scopes, UUID[] sorted, int[][] days) {
        this.scopes = scopes;
        this.sorted = sorted;
        this.days = days;
    }

    private record Keyed(UUID key, HitBatch.ScopeSession scope, int[] days) {
    }

    static SessionKeys of(HitBatch batch) {
        Hasher hasher = new Hasher();
        Keyed[] keyed = new Keyed[batch.sessions.size()];
        int i = 0;
        for (Map.Entry<HitBatch.ScopeSession, int[]> e : batch.sessions.entrySet()) {
            keyed[i++] = new Keyed(hasher.key(e.getKey()), e.getKey(), e.getValue());
        }
        Arrays.sort(keyed, (a, b) -> ORDER.compare(a.key, b.key));
        HitBatch.ScopeSession[] scopes = new HitBatch.ScopeSession[keyed.length];
        UUID[] sorted = new UUID[keyed.length];
        int[][] days = new int[keyed.length][];
        for (i = 0; i < keyed.length; i++) {
            scopes[i] = keyed[i].scope;
            sorted[i] = keyed[i].key;
            days[i] = keyed[i].days;
        }
        return new SessionKeys(scopes, sorted, days);
    }

    /** The position of {@code key} in {@link #sorted}, or a negative number. */
    int indexOf(UUID key) {
        return Arrays.binarySearch(sorted, key, ORDER);
    }

    static UUID key(HitBatch.ScopeSession scope) {
        return new Hasher().key(scope);
    }

    /**
     * Hashes scopes one after the other without building their text: the UTF-8 bytes of a batch's
     * few projects, hostnames and prefixes (with their length prefixes) are made once and fed to
     * one digest.
     */
    private static final class Hasher {

        private final MessageDigest md5 = md5();
        private final byte[] digest = new byte[16];
        private final ByteBuffer digestBuffer = ByteBuffer.wrap(digest);
        /** a project's text; {@code bytes:text} of a hostname or prefix; followed by ':' */
        private final Map<Object, byte[]> parts = new HashMap<>();

        UUID key(HitBatch.ScopeSession scope) {
            md5.update(parts.computeIfAbsent(scope.project(), p -> (p + ":").getBytes(StandardCharsets.US_ASCII)));
            md5.update(parts.computeIfAbsent(scope.hostname(), Hasher::lengthPrefixed));
            md5.update(parts.computeIfAbsent(scope.prefix(), Hasher::lengthPrefixed));
            md5.update(scope.session().getBytes(StandardCharsets.UTF_8));
            try {
                md5.digest(digest, 0, 16);
            } catch (DigestException e) {
                throw new IllegalStateException("An md5 digest is 16 bytes", e);
            }
            return new UUID(digestBuffer.getLong(0), digestBuffer.getLong(8));
        }

        private static byte[] lengthPrefixed(Object text) {
            byte[] bytes = ((String) text).getBytes(StandardCharsets.UTF_8);
            byte[] length = (bytes.length + ":").getBytes(StandardCharsets.US_ASCII);
            byte[] part = Arrays.copyOf(length, length.length + bytes.length + 1);
            System.arraycopy(bytes, 0, part, length.length, bytes.length);
            part[part.length - 1] = ':';
            return part;
        }
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has MD5", e);
        }
    }
}
