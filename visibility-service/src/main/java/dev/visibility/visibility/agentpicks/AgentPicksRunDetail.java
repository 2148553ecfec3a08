package dev.visibility.visibility.agentpicks;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * {@code data} of E1 (spec 2.2): exactly the members of 2.2 at every level, snake_case, every
 * member present (nulls written explicitly). What is withheld is decided by {@link Withholding}.
 * {@code @Nullable} marks the members 2.2 allows to be null (the OpenAPI document says so).
 */
public record AgentPicksRunDetail(Run run, Context context, @Nullable Pick pick, Evidence evidence) {

    public record Run(
            UUID id,
            @JsonProperty("test_id") UUID testId,
            @JsonProperty("test_kind") String testKind,
            @JsonProperty("test_status") String testStatus,
            String agent,
            String model,
            int repetition,
            String status,
            @JsonProperty("created_at") Instant createdAt,
            @JsonProperty("started_at") @Nullable Instant startedAt,
            @JsonProperty("completed_at") @Nullable Instant completedAt,
            @JsonProperty("early_stopped") boolean earlyStopped,
            @JsonProperty("wall_ms") @Nullable Long wallMs,
            @JsonProperty("has_error") boolean hasError) {
    }

    public record Context(
            @Nullable Environment environment,
            @JsonProperty("request_withheld") boolean requestWithheld,
            @JsonProperty("job_withheld") boolean jobWithheld,
            String request,
            @Nullable String intent,
            String job,
            @JsonProperty("classifier_version") @Nullable String classifierVersion,
            @JsonProperty("agent_timeout_sec") @Nullable Double agentTimeoutSec) {
    }

    public record Environment(String id, String slug, String name, @Nullable String framework) {
    }

    public record Pick(
            String outcome,
            @JsonProperty("tool_key") @Nullable String toolKey,
            @JsonProperty("tool_display_name") @Nullable String toolDisplayName,
            @JsonProperty("tool_brand_domain") @Nullable String toolBrandDomain,
            @Nullable Double confidence,
            @JsonProperty("classifier_version") String classifierVersion,
            @JsonProperty("decided_by") @Nullable String decidedBy,
            @JsonProperty("tool_packages_withheld") boolean toolPackagesWithheld,
            @JsonProperty("tool_packages") List<String> toolPackages,
            @JsonProperty("other_tools_withheld") boolean otherToolsWithheld,
            @JsonProperty("other_tools") List<String> otherTools,
            @JsonProperty("diff_truncated") boolean diffTruncated) {
    }

    public record Evidence(String availability, List<Item> items, Pagination pagination) {

        public static final String RECORDED = "recorded";
        public static final String NOT_RETAINED = "not_retained";
        public static final String END_OF_TRAIL = "end_of_trail";
    }

    // one name per schema in the OpenAPI document (another record of this service is also called Pagination)
    @Schema(name = "AgentPicksEvidencePagination")
    public record Pagination(
            @JsonProperty("has_more") boolean hasMore,
            @JsonProperty("next_cursor") @Nullable String nextCursor,
            int limit) {
    }

    // one name per schema in the OpenAPI document (another record of this service is also called Item)
    @Schema(name = "AgentPicksEvidenceItem")
    public record Item(
            UUID id,
            long seq,
            String kind,
            @Nullable String url,
            @JsonProperty("status_code") @Nullable Integer statusCode,
            @JsonProperty("recorded_at") Instant recordedAt,
            @JsonProperty("observed_at") @Nullable Double observedAt,
            Detail detail) {
    }

    public record Detail(
            List<String> queries,
            String path,
            List<String> packages,
            @Nullable String source,
            @Nullable String method,
            @JsonProperty("exit_code") @Nullable Integer exitCode,
            @Nullable Boolean failed,
            @JsonProperty("text_withheld") boolean textWithheld,
            @JsonProperty("packages_withheld") boolean packagesWithheld,
            @JsonProperty("command_withheld") boolean commandWithheld) {
    }
}
