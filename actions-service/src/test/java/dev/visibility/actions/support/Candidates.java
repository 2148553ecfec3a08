package dev.visibility.actions.support;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import tools.jackson.databind.json.JsonMapper;

/**
 * Records of the {@code recommendations} topic as a recommendation job writes them (see
 * docs/events/recommendations.schema.json), as mutable maps so a test can change one fact.
 */
public final class Candidates {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    private Candidates() {
    }

    /** An upsert with full evidence: one evidence item whose citation-loss cells name {@code prompts}. */
    public static Map<String, Object> upsert(UUID projectId, String recommendationId, String family, double reach,
            double gap, double confidence, List<UUID> prompts, int currentCitations) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("eventId", UUID.randomUUID().toString());
        c.put("projectId", projectId.toString());
        c.put("accountId", "acct-" + projectId.toString().substring(0, 8));
        c.put("recommendationId", recommendationId);
        c.put("kind", "upsert");
        c.put("occurredAt", Instant.now().toString());
        c.put("title", "Win back citations for " + recommendationId);
        c.put("description", "Competitors are cited where the project used to be.");
        c.put("channels", new ArrayList<>(List.of("content", "technical")));
        c.put("priority", "high");
        c.put("bucket", "do_now");
        c.put("opportunity", opportunity(family, reach, gap, confidence));
        c.put("effortScore", 2.5);
        c.put("portfolioCategory", "quick_win");
        c.put("steeredFromPageUrl", "https://example.com/pricing");
        c.put("followUpOf", null);
        c.put("expectedImpact", "About 12 more citations a month");
        c.put("primaryCtaKind", "generate_brief");
        c.put("target", new LinkedHashMap<>(Map.of("label", "Pricing page", "type", "page",
                "payload", Map.of("url", "https://example.com/pricing"))));
        c.put("whatChanged", "Two competitors published comparison pages.");
        c.put("whyNow", "Citations fell for three weeks in a row.");
        c.put("isCommandCenter", false);
        c.put("highStakes", false);
        c.put("ownerName", "Content team");
        c.put("evidence", evidence(prompts, currentCitations));
        c.put("brief", null);
        return c;
    }

    public static Map<String, Object> opportunity(String family, double reach, double gap, double confidence) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("family", family);
        o.put("estimated", false);
        o.put("components", Map.of(
                "reach", Map.of("value", reach, "unit", "searches_per_month", "estimated", false),
                "gap", Map.of("value", gap, "unit", "citation_share", "normalization", "1 - project citations / all citations"),
                "confidence", Map.of("value", confidence, "unit", "ratio", "volumeConfidencePenalty", 0.1,
                        "saturation", Map.of("signalDays", 28, "eventEvidence", 12, "runPlatformObservations", 40))));
        o.put("measuredFacts", List.of("citation_share_dropped"));
        o.put("percentileScope", "signal_family");
        o.put("measurements", Map.of("asOfDate", "2026-11-20",
                "compositionChange", Map.of("onlyPrior", Map.of("cellCount", 2, "citationCount", 5),
                        "onlyCurrent", Map.of("cellCount", 1, "citationCount", 1)),
                "currentCitationCount", 10, "currentExecutions", 120, "currentProbeDays", 14,
                "matchedCohortCoverage", 0.8, "priorCitationCount", 22, "priorExecutions", 118, "priorProbeDays", 14));
        return o;
    }

    public static Map<String, Object> evidence(List<UUID> prompts, int currentCitations) {
        return new LinkedHashMap<>(Map.of(
                "topEvidence", new ArrayList<>(List.of(evidenceItem(UUID.randomUUID(), prompts, currentCitations))),
                "winningPages", List.of(Map.of("rank", 1, "url", "https://competitor.example/compare", "title", "Compare",
                        "domain", "competitor.example", "assetType", "competitor", "citationCount", 14, "citedAnswers", 9,
                        "promptCount", 3, "averagePosition", 1.7))));
    }

    public static Map<String, Object> evidenceItem(UUID id, List<UUID> prompts, int currentCitations) {
        List<Map<String, Object>> cells = new ArrayList<>();
        for (int i = 0; i < prompts.size(); i++) {
            cells.add(Map.of("promptId", prompts.get(i).toString(), "platform", "chatgpt",
                    "priorCitationCount", 4, "currentCitationCount", i == 0 ? currentCitations : 0,
                    "promptText", "best tool for " + i, "priorExecutions", 10, "currentExecutions", 10));
        }
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", id.toString());
        e.put("title", "Pricing page lost citations");
        e.put("summary", "Cited in 4 of 10 answers before, fewer now.");
        e.put("type", "citation_loss");
        e.put("audit", Map.of("assessedAt", "2026-11-19T10:00:00Z",
                "checks", List.of(Map.of("label", "Subject clarity", "detail", "The H1 names no product", "score", 0.4, "failing", true)),
                "sectionAssessment", Map.of("version", "3", "contentHash", "c1", "inputHash", "i1",
                        "assessedAt", "2026-11-19T10:00:00Z", "status", "complete", "reason", "no_substantive_sections",
                        "selection", Map.of("scannedChars", 1200, "sourceChars", 5400, "candidateCount", 3, "sampled", false, "truncated", false),
                        "sections", List.of(Map.of("locator", "#h1", "heading", "Pricing", "start", 0, "end", 400,
                                "source", "html", "truncated", false)),
                        "findings", List.of(Map.of("locator", "#h1", "kind", "subject_clarity", "excerpt", "Pricing",
                                "explanation", "No product named", "remedy", "Name the product"))),
                "pageUrl", "https://example.com/pricing", "citationScope", "page"));
        e.put("citationLoss", Map.of("priorCitationCount", 4 * prompts.size(), "currentCitationCount", currentCitations,
                "cellCount", prompts.size(), "cells", cells, "pageLabel", "Pricing", "priorExecutions", 10 * prompts.size(),
                "currentExecutions", 10 * prompts.size()));
        e.put("googleEligibility", Map.of("coverageState", "indexed",
                "dimensions", Map.of("canonical", "pass", "crawlable", "pass", "indexed", "pass", "structuredData", "fail"),
                "observedAt", "2026-11-18T08:00:00Z"));
        return e;
    }

    public static Map<String, Object> withdraw(UUID projectId, String recommendationId) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("eventId", UUID.randomUUID().toString());
        c.put("projectId", projectId.toString());
        c.put("accountId", "acct-" + projectId.toString().substring(0, 8));
        c.put("recommendationId", recommendationId);
        c.put("kind", "withdraw");
        return c;
    }

    /** The same record again under a new eventId (a later version from the job). */
    public static Map<String, Object> next(Map<String, Object> candidate) {
        Map<String, Object> copy = JSON.readValue(JSON.writeValueAsString(candidate), LinkedHashMap.class);
        copy.put("eventId", UUID.randomUUID().toString());
        return copy;
    }

    public static String json(Map<String, Object> candidate) {
        return JSON.writeValueAsString(candidate);
    }
}
