package dev.visibility.actions.action;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** {@code context} of an action at the context detail level (spec 2.4): evidence and winning pages. */
public record ActionContext(List<TopEvidence> topEvidence, List<WinningPage> winningPages) {

    public record TopEvidence(UUID id, String title, String summary, String type, Audit audit,
            CitationLoss citationLoss, GoogleEligibility googleEligibility) {
    }

    public record Audit(Instant assessedAt, List<Check> checks, SectionAssessment sectionAssessment, String pageUrl,
            String citationScope) {
    }

    public record Check(String label, String detail, double score, boolean failing) {
    }

    public record SectionAssessment(String version, String contentHash, String inputHash, Instant assessedAt,
            String status, String reason, Selection selection, List<Section> sections, List<Finding> findings) {
    }

    public record Selection(int scannedChars, int sourceChars, int candidateCount, boolean sampled, boolean truncated) {
    }

    public record Section(String locator, String heading, int start, int end, String source, boolean truncated) {
    }

    public record Finding(String locator, String kind, String excerpt, String explanation, String remedy) {
    }

    public record CitationLoss(int priorCitationCount, int currentCitationCount, int cellCount, List<Cell> cells,
            String pageLabel, int priorExecutions, int currentExecutions) {
    }

    /** One prompt × platform cell of a citation loss: the stored link between an action and a prompt (E6). */
    public record Cell(UUID promptId, String platform, int priorCitationCount, int currentCitationCount,
            String promptText, int priorExecutions, int currentExecutions) {
    }

    public record GoogleEligibility(String coverageState, Dimensions dimensions, Instant observedAt) {
    }

    public record Dimensions(String canonical, String crawlable, String indexed, String structuredData) {
    }

    public record WinningPage(int rank, String url, String title, String domain, String assetType, int citationCount,
            int citedAnswers, int promptCount, double averagePosition) {
    }

    public static ActionContext empty() {
        return new ActionContext(List.of(), List.of());
    }
}
