package dev.visibility.traffic.summary;

import java.time.LocalDate;

import dev.visibility.traffic.sensors.SensorState;

/**
 * {@code data} of E4 (spec 2.6). The totals follow the {@code domain} and {@code pathPrefix}
 * filters; {@code sensors} is project-wide and never narrowed.
 *
 * @param totalEvents      hits in the window (bot and referral)
 * @param botEvents        hits by AI crawlers
 * @param referralEvents   hits by visitors an AI assistant referred
 * @param uniqueSessions   distinct sessions with a hit in the window
 * @param botSessions      distinct sessions with a bot hit in the window
 * @param referralSessions distinct sessions with a referral hit in the window
 */
public record TrafficSummary(long totalEvents, long botEvents, long referralEvents, long uniqueSessions,
        long botSessions, long referralSessions, SensorState sensors, Window window) {

    public record Window(int days, LocalDate dateFrom, LocalDate dateTo) {
    }
}
