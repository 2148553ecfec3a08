package dev.visibility.actions.action;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The facts of a recommendation that decide whether it "changes materially and should be reviewed
 * again" (spec 6). Sets are kept sorted, so a reorder of evidence, prompts or channels is no change;
 * wording (title, description, whyNow, whatChanged, expectedImpact), rank, bucket and brief are not
 * facts at all. Citations are compared against the baseline of the last material change, so small
 * drift never fires, not even when it accumulates slowly.
 */
public record MaterialFacts(String targetLabel, String targetType, Map<String, Object> targetPayload,
        List<String> promptIds, List<String> evidenceIds, List<String> channels, String priority, String family,
        boolean highStakes, int citationBaseline) {

    public static final String CONCRETE_TARGET_CHANGED = "concrete_target_changed";
    public static final String PROMPT_SET_CHANGED = "prompt_set_changed";
    public static final String EVIDENCE_CHANGED = "evidence_changed";
    public static final String CHANNELS_CHANGED = "channels_changed";
    public static final String PRIORITY_CHANGED = "priority_changed";
    public static final String SIGNAL_FAMILY_CHANGED = "signal_family_changed";
    public static final String HIGH_STAKES_CHANGED = "high_stakes_changed";
    public static final String CITATION_LOSS_CHANGED = "citation_loss_changed";

    /** Below this absolute change of current citations, a shift is drift. */
    public static final int CITATION_MIN_ABSOLUTE = 5;
    /** Below this share of the baseline, a shift is drift. */
    public static final double CITATION_MIN_RELATIVE = 0.25;

    public MaterialFacts {
        promptIds = sorted(promptIds);
        evidenceIds = sorted(evidenceIds);
        channels = sorted(channels);
        targetPayload = targetPayload == null ? Map.of() : targetPayload;
    }

    private static List<String> sorted(List<String> values) {
        List<String> copy = new ArrayList<>(values == null ? List.of() : values);
        copy = new ArrayList<>(copy.stream().distinct().sorted().toList());
        return List.copyOf(copy);
    }

    public static boolean citationShiftIsMaterial(int baseline, int current) {
        int delta = Math.abs(current - baseline);
        return delta >= CITATION_MIN_ABSOLUTE && delta >= CITATION_MIN_RELATIVE * baseline;
    }

    /** The reasons, in a fixed order, why {@code next} needs review after {@code this}; empty when none. */
    public List<String> changeReasons(MaterialFacts next, int nextCitations) {
        List<String> reasons = new ArrayList<>();
        if (!Objects.equals(targetLabel, next.targetLabel) || !Objects.equals(targetType, next.targetType)
                || !Objects.equals(targetPayload, next.targetPayload)) {
            reasons.add(CONCRETE_TARGET_CHANGED);
        }
        if (!promptIds.equals(next.promptIds)) {
            reasons.add(PROMPT_SET_CHANGED);
        }
        if (!evidenceIds.equals(next.evidenceIds)) {
            reasons.add(EVIDENCE_CHANGED);
        }
        if (!channels.equals(next.channels)) {
            reasons.add(CHANNELS_CHANGED);
        }
        if (!Objects.equals(priority, next.priority)) {
            reasons.add(PRIORITY_CHANGED);
        }
        if (!Objects.equals(family, next.family)) {
            reasons.add(SIGNAL_FAMILY_CHANGED);
        }
        if (highStakes != next.highStakes) {
            reasons.add(HIGH_STAKES_CHANGED);
        }
        if (citationShiftIsMaterial(citationBaseline, nextCitations)) {
            reasons.add(CITATION_LOSS_CHANGED);
        }
        return reasons;
    }

    public MaterialFacts withCitationBaseline(int baseline) {
        return new MaterialFacts(targetLabel, targetType, targetPayload, promptIds, evidenceIds, channels, priority,
                family, highStakes, baseline);
    }

    /** A stable digest of the facts (the serialized form is canonical: sorted lists, fixed field order). */
    public String hash(String canonicalJson) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonicalJson.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
