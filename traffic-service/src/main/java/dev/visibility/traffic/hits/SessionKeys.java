package dev.visibility.traffic.hits;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.UUID;

/**
 * The 128-bit keys of a batch's session scopes ({@code traffic_sessions.key}), in key order: md5 of
 * {@code projectId ':' bytes(hostname) ':' hostname ':' bytes(prefix) ':' prefix ':' sessionId} (UTF-8;
 * lengths in bytes, so that no two scopes spell one text) read as a uuid, as migration V3 computes
 * it in SQL for the rows it converted.
 */
final class SessionKeys {

    /** PostgreSQL's uuid order (bytewise): the order in which the batch looks keys up and inserts them ({@link #order}). */
    static final Comparator<UUID> ORDER = (a, b) -> compare(a.getMostSignificantBits(), a.getLeastSignificantBits(),
            b.getMostSignificantBits(), b.getLeastSignificantBits());

    /** The batch's session scopes, in {@link #ORDER} of their keys. */
    final HitBatch.ScopeSession[] scopes;
    /** the key of {@code scopes[i]}, ascending in {@link #ORDER} */
    final UUID[] sorted;
    /** last day, last bot day, last referral day of {@code scopes[i]} in the batch */
    final int[][] days;
    /** after {@link HitBatch#fold}: the last days the batch leaves in the row of {@code scopes[i]} */
    final int[][] settled;
    /** the batch's session scopes the cache covered (not among these) */
    final int covered;

    private SessionKeys(HitBatch.ScopeSession[] scopes, UUID[] sorted, int[][] days, int covered) {
        this.scopes = scopes;
        this.sorted = sorted;
        this.days = days;
        this.settled = new int[sorted.length][];
        this.covered = covered;
    }

    static SessionKeys of(HitBatch batch) {
        return of(batch, SessionCache.NONE, 0);
    }

    /**
     * The batch's session scopes that {@code cache} does not cover ({@link SessionCache#covers}, with
     * {@code minDay}): those the batch must look up; the others it can move nothing for.
     */
    static SessionKeys of(HitBatch batch, SessionCache cache, int minDay) {
        int n = batch.sessions.size();
        HitBatch.ScopeSession[] scopes = new HitBatch.ScopeSession[n];
        int[][] days = new int[n][];
        long[] high = new long[n];
        long[] low = new long[n];
        Hasher hasher = new Hasher();
        int i = 0;
        for (Map.Entry<HitBatch.ScopeSession, int[]> e : batch.sessions.entrySet()) {
            int[] d = e.getValue();
            hasher.hash(e.getKey().scope().keyPrefix, e.getKey().session());
            if (cache.covers(hasher.high(), hasher.low(), d[0], d[1], d[2], minDay)) {
                continue;
            }
            scopes[i] = e.getKey();
            days[i] = d;
            high[i] = hasher.high();
            low[i] = hasher.low();
            i++;
        }
        int covered = n - i;
        if (covered > 0) {
            high = Arrays.copyOf(high, i);
            low = Arrays.copyOf(low, i);
        }
        n = i;
        int[] order = order(high, low);
        HitBatch.ScopeSession[] orderedScopes = new HitBatch.ScopeSession[n];
        int[][] orderedDays = new int[n][];
        UUID[] sorted = new UUID[n];
        for (i = 0; i < n; i++) {
            int from = order[i];
            orderedScopes[i] = scopes[from];
            orderedDays[i] = days[from];
            sorted[i] = new UUID(high[from], low[from]);
        }
        return new SessionKeys(orderedScopes, sorted, orderedDays, covered);
    }

    /** Remembers in {@code cache} what the batch left in each of its looked-up rows ({@link #settled}, once it committed). */
    void remember(SessionCache cache) {
        for (int i = 0; i < sorted.length; i++) {
            if (settled[i] != null) {
                cache.remember(sorted[i].getMostSignificantBits(), sorted[i].getLeastSignificantBits(), settled[i]);
            }
        }
    }

    /**
     * The positions of the keys {@code (high[i], low[i])} in {@link #ORDER}: the keys are md5 digests,
     * spread evenly, so they are put into buckets by their top bits (about one key a bucket) and each
     * bucket is sorted on its own; a bucket that holds many keys (made so on purpose) is sorted by
     * comparisons rather than by insertion. Primitive arrays throughout: sorting objects by a comparator
     * that reads two longs through two references was a tenth of the batch's work.
     */
    static int[] order(long[] high, long[] low) {
        int n = high.length;
        int bits = Math.max(1, Math.min(20, 32 - Integer.numberOfLeadingZeros(n)));
        int shift = 64 - bits;
        int[] start = new int[(1 << bits) + 1];
        for (long h : high) {
            start[(int) (h >>> shift) + 1]++;
        }
        for (int b = 1; b < start.length; b++) {
            start[b] += start[b - 1];
        }
        int[] next = Arrays.copyOf(start, start.length - 1);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[next[(int) (high[i] >>> shift)]++] = i;
        }
        for (int b = 0; b + 1 < start.length; b++) {
            int from = start[b];
            int to = start[b + 1];
            if (to - from > 32) {
                Integer[] bucket = new Integer[to - from];
                for (int i = from; i < to; i++) {
                    bucket[i - from] = order[i];
                }
                Arrays.sort(bucket, (x, y) -> compare(high, low, x, y));
                for (int i = from; i < to; i++) {
                    order[i] = bucket[i - from];
                }
            } else {
                for (int i = from + 1; i < to; i++) {
                    int key = order[i];
                    int j = i - 1;
                    while (j >= from && compare(high, low, order[j], key) > 0) {
                        order[j + 1] = order[j];
                        j--;
                    }
                    order[j + 1] = key;
                }
            }
        }
        return order;
    }

    private static int compare(long[] high, long[] low, int x, int y) {
        return compare(high[x], low[x], high[y], low[y]);
    }

    private static int compare(long highA, long lowA, long highB, long lowB) {
        int h = Long.compareUnsigned(highA, highB);
        return h != 0 ? h : Long.compareUnsigned(lowA, lowB);
    }

    /** The position of {@code key} in {@link #sorted}, or a negative number. */
    int indexOf(UUID key) {
        return Arrays.binarySearch(sorted, key, ORDER);
    }

    /** The key of one session scope. */
    static UUID key(UUID project, String hostname, String prefix, String session) {
        Hasher hasher = new Hasher();
        hasher.hash(keyPrefix(project, hostname, prefix), session);
        return new UUID(hasher.high(), hasher.low());
    }

    /** {@code projectId ':' bytes(hostname) ':' hostname ':' bytes(prefix) ':' prefix ':'}, in UTF-8: what a scope's keys begin with. */
    static byte[] keyPrefix(UUID project, String hostname, String prefix) {
        byte[] p = (project + ":").getBytes(StandardCharsets.US_ASCII);
        byte[] h = lengthPrefixed(hostname);
        byte[] x = lengthPrefixed(prefix);
        byte[] all = Arrays.copyOf(p, p.length + h.length + x.length);
        System.arraycopy(h, 0, all, p.length, h.length);
        System.arraycopy(x, 0, all, p.length + h.length, x.length);
        return all;
    }

    private static byte[] lengthPrefixed(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        byte[] length = (bytes.length + ":").getBytes(StandardCharsets.US_ASCII);
        byte[] part = Arrays.copyOf(length, length.length + bytes.length + 1);
        System.arraycopy(bytes, 0, part, length.length, bytes.length);
        part[part.length - 1] = ':';
        return part;
    }

    /** One digest reused for a batch's keys. */
    private static final class Hasher {

        private final MessageDigest md5 = md5();
        private final byte[] digest = new byte[16];
        private final ByteBuffer digestBuffer = ByteBuffer.wrap(digest);

        void hash(byte[] keyPrefix, String session) {
            md5.update(keyPrefix);
            md5.update(session.getBytes(StandardCharsets.UTF_8));
            try {
                md5.digest(digest, 0, 16);
            } catch (DigestException e) {
                throw new IllegalStateException("An md5 digest is 16 bytes", e);
            }
        }

        long high() {
            return digestBuffer.getLong(0);
        }

        long low() {
            return digestBuffer.getLong(8);
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
