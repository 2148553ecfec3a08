package dev.visibility.auth.usage;

import java.time.Clock;
import java.time.YearMonth;
import java.util.UUID;

import dev.visibility.platform.error.NotFound;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.web.Envelope;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Spec 5.7: every key may read its project's status and usage without any scope. The platform
 * has already checked that the path's project is the credential's.
 */
@RestController
class UsageController {

    private final UsageRepository usage;
    private final Clock clock = Clock.systemUTC();

    UsageController(UsageRepository usage) {
        this.usage = usage;
    }

    @GetMapping("/api/v2/projects/{projectId}/usage")
    Envelope<ProjectUsage> usage(@PathVariable String projectId) {
        UUID id = QueryParams.pathUuid("projectId", projectId);
        YearMonth month = YearMonth.now(clock);
        UsageRepository.ProjectUsageRow row = usage.projectUsage(id, month.atDay(1))
                .orElseThrow(() -> new NotFound("No project exists with this id"));
        return Envelope.of(new ProjectUsage(id.toString(), row.paused(), row.plan().value(), row.plan().apiAccess(),
                new ProjectUsage.Period(month.atDay(1), month.atEndOfMonth()), new ProjectUsage.Requests(row.requests())),
                id.toString());
    }
}
