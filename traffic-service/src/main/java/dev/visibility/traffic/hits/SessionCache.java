package dev.visibility.traffic.hits;

/**
 * The last days of session scopes as their batches committed them, so that a batch need not look up
 * a session scope whose stored row it cannot change (bench/TrafficBench.md, session 23).
 *
 * <p>Why it stays exact without being told of other writers: a session scope's stored last days only
 * ever grow (a new row, or {@code greatest} of the stored and the batch's), whoever applies the
 * project's hits (another instance after a rebalance included); the one thing that removes a row is
 * the retention sweep, and only once its last day is {@code RetentionSweep.KEEP_DAYS} days old. So
 * what a committed batch left is a lower bound of the row for as long as the row's last day is
 * recent: when a batch's days for a session scope are each at most those remembered, and the
 * remembered last day is at least {@code minDay} (a few days ago), the stored row already holds
 * those days or later ones, and the batch would move nothing for it: it is neither looked up nor
 * written. Anything else is looked up as before. Entries are remembered only after their batch's
 * transaction committed ({@link HitIngestion}), never from a batch that rolled back.
 *
 * <p>Direct-mapped: a key's slot is taken from its low bits and the slot keeps the key's high 64
 * bits, so two keys are only confused when they agree in those 64 bits and in the slot's bits (a
 * weaker coincidence than the 128-bit key colliding, which the rollups already accept). A key that
 * lands on an occupied slot replaces its entry: a forgotten entry only costs a lookup. Days are kept
 * as 16 bits each (epoch days up to the year 2149); a day outside that is not remembered.
 * Safe for the service's concurrent consumers (one lock per stripe of slots).
 */
final class SessionCache {

    /** No cache: every session scope is looked up. */
    static final SessionCache NONE = new SessionCache(0);

    private static final int STRIPES = 64;
    private static final int DAY_BITS = 16;
    private static final long DAY_MASK = (1L << DAY_BITS) - 1;

    private final int mask;
    /** per slot: the key's high 64 bits */
    private final long[] keys;
    /** per slot: last day, last bot day and last referral day, each + 1 in 16 bits (0: none); 0 in all: an empty slot */
    private final long[] days;
    private final Object[] locks;

    /** @param slots 0 (no cache) or a power of two */
    SessionCache(int slots) {
        if (slots < 0 || Integer.bitCount(slots) > 1) {
            throw new IllegalArgumentException("A session cache has a power of two of slots, or none: " + slots);
        }
        this.mask = slots - 1;
        this.keys = new long[slots];
        this.days = new long[slots];
        this.locks = new Object[slots == 0 ? 0 : Math.min(STRIPES, slots)];
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new Object();
        }
    }

    /**
     * Whether the stored row of the key {@code (high, low)} is known to hold at least {@code day},
     * {@code bot} and {@code referral} ({@link HitBatch#NONE}: none), with a last day of at least
     * {@code minDay}.
     */
    boolean covers(long high, long low, int day, int bot, int referral, int minDay) {
        if (keys.length == 0) {
            return false;
        }
        int slot = (int) low & mask;
        long packed;
        synchronized (locks[slot & (locks.length - 1)]) {
            if (keys[slot] != high) {
                return false;
            }
            packed = days[slot];
        }
        int last = unpack(packed, 0);
        return last != HitBatch.NONE && last >= Math.max(day, minDay)
                && atLeast(unpack(packed, 1), bot) && atLeast(unpack(packed, 2), referral);
    }

    /** Remembers what a committed batch left in the key's row: its last day, last bot day and last referral day. */
    void remember(long high, long low, int[] stored) {
        if (keys.length == 0) {
            return;
        }
        long packed = 0;
        for (int c = 0; c < 3; c++) {
            int day = stored[c];
            if (day != HitBatch.NONE) {
                if (day < 0 || day >= DAY_MASK) {
                    return;
                }
                packed |= (day + 1L) << (c * DAY_BITS);
            }
        }
        if (stored[0] == HitBatch.NONE) {
            return;
        }
        int slot = (int) low & mask;
        synchronized (locks[slot & (locks.length - 1)]) {
            keys[slot] = high;
            days[slot] = packed;
        }
    }

    int slots() {
        return keys.length;
    }

    private static int unpack(long packed, int c) {
        int value = (int) ((packed >>> (c * DAY_BITS)) & DAY_MASK);
        return value == 0 ? HitBatch.NONE : value - 1;
    }

    /** {@code known} is at least {@code wanted}, where none is below every day. */
    private static boolean atLeast(int known, int wanted) {
        return wanted == HitBatch.NONE || known != HitBatch.NONE && known >= wanted;
    }
}
