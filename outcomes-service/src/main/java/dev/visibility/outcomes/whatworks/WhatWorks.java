package dev.visibility.outcomes.whatworks;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/**
 * {@code data} of E7 (spec 2.8). {@code emptyState} is null while there are recommendations and
 * explains their absence otherwise (rule 5).
 */
public record WhatWorks(List<Recommendation> recommendations, boolean hasCorrelatedData, EmptyState emptyState,
        Window window) {

    /**
     * One channel's closed 14-day improvements in the window. {@code avgMeasuredEffect} mixes units
     * (citations and answer fetches) and is not citation lift (rule 4).
     */
    public record Recommendation(String recommendation, String channel, long sampleSize, double avgImpactScore,
            double avgMeasuredEffect, Instant lastCorrelatedAt) {
    }

    public record EmptyState(String reason, String message, List<String> requirements, Counts counts) {
    }

    /** Counts over the actions completed in the reporting window only (rule 5). */
    public record Counts(long markedInterventions, long correlatedInterventions, long recentEligibleCorrelations) {
    }

    public record Window(int days, LocalDate dateFrom, LocalDate dateTo) {
    }
}
