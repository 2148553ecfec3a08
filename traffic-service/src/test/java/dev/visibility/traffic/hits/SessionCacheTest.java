package dev.visibility.traffic.hits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

/** What the session cache vouches for: a committed row's last days, each at least the batch's, recent enough. */
class SessionCacheTest {

    private static final int NONE = HitBatch.NONE;
    private static final int TODAY = 20_785;
    private static final int TRUSTED_FROM = TODAY - 7;

    private final SessionCache cache = new SessionCache(1024);

    @Test
    void anUnknownKeyIsNotCovered() {
        assertThat(cache.covers(1L, 2L, TODAY, TODAY, NONE, TRUSTED_FROM)).isFalse();
        assertThat(cache.covers(0L, 0L, TODAY, NONE, NONE, TRUSTED_FROM)).as("an empty slot").isFalse();
    }

    @Test
    void aBatchWhoseDaysAreEachAtMostTheRemembered() {
        cache.remember(7L, 3L, new int[] {TODAY, TODAY - 1, TODAY});

        assertThat(cache.covers(7L, 3L, TODAY, NONE, NONE, TRUSTED_FROM)).isTrue();
        assertThat(cache.covers(7L, 3L, TODAY - 2, TODAY - 1, TODAY - 5, TRUSTED_FROM)).isTrue();
        assertThat(cache.covers(7L, 3L, TODAY + 1, NONE, NONE, TRUSTED_FROM)).as("a later last day").isFalse();
        assertThat(cache.covers(7L, 3L, TODAY, TODAY, NONE, TRUSTED_FROM)).as("a later bot day").isFalse();
        assertThat(cache.covers(7L, 3L, TODAY, NONE, TODAY + 1, TRUSTED_FROM)).as("a later referral day").isFalse();
        assertThat(cache.covers(8L, 3L, TODAY, NONE, NONE, TRUSTED_FROM)).as("another key, same slot").isFalse();
    }

    @Test
    void aKindTheRowHasNoneOfIsNotCovered() {
        cache.remember(7L, 3L, new int[] {TODAY, TODAY, NONE});

        assertThat(cache.covers(7L, 3L, TODAY, TODAY, NONE, TRUSTED_FROM)).isTrue();
        assertThat(cache.covers(7L, 3L, TODAY - 3, NONE, TODAY - 3, TRUSTED_FROM)).isFalse();
    }

    @Test
    void aRowWhoseLastDayIsOlderThanTheTrustedDaysIsLookedUp() {
        cache.remember(7L, 3L, new int[] {TRUSTED_FROM - 1, TRUSTED_FROM - 1, NONE});
        cache.remember(9L, 4L, new int[] {TRUSTED_FROM, NONE, TRUSTED_FROM});

        assertThat(cache.covers(7L, 3L, TRUSTED_FROM - 2, NONE, NONE, TRUSTED_FROM)).isFalse();
        assertThat(cache.covers(9L, 4L, TRUSTED_FROM, NONE, TRUSTED_FROM, TRUSTED_FROM)).isTrue();
    }

    @Test
    void aKeyInTheSameSlotReplacesTheEntry() {
        cache.remember(7L, 3L, new int[] {TODAY, NONE, TODAY});
        cache.remember(8L, 3L + 1024, new int[] {TODAY, TODAY, NONE});

        assertThat(cache.covers(7L, 3L, TODAY, NONE, NONE, TRUSTED_FROM)).isFalse();
        assertThat(cache.covers(8L, 3L + 1024, TODAY, TODAY, NONE, TRUSTED_FROM)).isTrue();
    }

    @Test
    void daysItCannotHoldAreNotRemembered() {
        cache.remember(7L, 3L, new int[] {70_000, NONE, NONE});
        cache.remember(8L, 4L, new int[] {-1, NONE, NONE});
        cache.remember(9L, 5L, new int[] {NONE, NONE, NONE});

        assertThat(cache.covers(7L, 3L, TODAY, NONE, NONE, TRUSTED_FROM)).isFalse();
        assertThat(cache.covers(8L, 4L, -2, NONE, NONE, -10)).isFalse();
        assertThat(cache.covers(9L, 5L, TODAY, NONE, NONE, TRUSTED_FROM)).isFalse();
    }

    @Test
    void noSlotsNoCache() {
        SessionCache none = new SessionCache(0);
        none.remember(7L, 3L, new int[] {TODAY, NONE, NONE});

        assertThat(none.covers(7L, 3L, TODAY, NONE, NONE, TRUSTED_FROM)).isFalse();
        assertThat(SessionCache.NONE.covers(7L, 3L, TODAY, NONE, NONE, TRUSTED_FROM)).isFalse();
        assertThatIllegalArgumentException().isThrownBy(() -> new SessionCache(1000));
        assertThatIllegalArgumentException().isThrownBy(() -> new SessionCache(-1));
    }
}
