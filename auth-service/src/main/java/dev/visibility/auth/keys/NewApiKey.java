package dev.visibility.auth.keys;

import dev.visibility.auth.secrets.Secrets;

/**
 * A freshly generated key: {@code key} is shown once to its creator and never stored or logged;
 * only {@code hash} and {@code visiblePrefix} are kept.
 */
public record NewApiKey(String key, String hash, String visiblePrefix) {

    /** Hex characters of the random part kept visible, after {@code <prefix>_live_} (e.g. {@code svc_live_ab1}). */
    static final int VISIBLE_HEX = 3;

    static NewApiKey generate(String prefix) {
        String head = prefix + "_live_";
        String key = head + Secrets.randomHex();
        return new NewApiKey(key, Secrets.sha256Hex(key), key.substring(0, head.length() + VISIBLE_HEX));
    }

    @Override
    public String toString() {
        return "NewApiKey[" + visiblePrefix + "…]";
    }
}
