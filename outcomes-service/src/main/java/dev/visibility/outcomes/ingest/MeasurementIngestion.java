package dev.visibility.outcomes.ingest;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import dev.visibility.platform.consumer.PoisonRecord;
import dev.visibility.platform.events.OutcomeMeasured;
import io.r2dbc.spi.Readable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;

/**
 * Applies one {@code outcomes.measurements} record inside the consumer's transaction (the platform
 * claims its eventId in the same transaction): keeps it when it is the latest measurement of its
 * window, recomputes the intervention's result and flags, and moves the rollups by the difference
 * between what the replaced measurement and intervention contributed and what the new ones do.
 * The rollups therefore always equal a fresh aggregation of the stored rows.
 */
@Component
public class MeasurementIngestion {

    /** Columns of {@code scoreboard_daily} in the order of {@link #scoreboard}. */
    static final String[] SCOREBOARD = {"improved", "mixed", "no_clear_change", "declined", "still_measuring", "unmeasured",
        "in_flight", "blind", "unmatched_url", "sensor_gap", "citations_before", "citations_after"};
    static final String[] IMPACT = {"in_flight", "cit_measured", "cit_delta", "presence_delta", "af_measured", "af_delta"};
    static final String[] CONVERSIONS = {"covered", "conversions"};
    static final String[] WHAT_WORKS = {"improved", "impact_sum", "effect_sum"};
    private static final int INTEGER_COLUMNS_SCOREBOARD = 10;

    private final DatabaseClient db;
    private final ObjectMapper mapper;

    public MeasurementIngestion(DatabaseClient db, ObjectMapper mapper) {
        this.db = db;
        this.mapper = mapper;
    }

    public Mono<String> ingest(OutcomeMeasured m) {
        return intervention(m.interventionId()).map(Optional::of).defaultIfEmpty(Optional.empty())
                .flatMap(oldRow -> {
                    if (oldRow.isPresent()) {
                        Intervention old = oldRow.get();
                        if (!old.projectId().equals(m.projectId())) {
                            return Mono.error(new PoisonRecord("interventionId belongs to another project"));
                        }
                        if (!old.intervenedAt().equals(m.intervenedAt())) {
                            return Mono.error(new PoisonRecord("intervenedAt differs from the intervention's earlier records"));
                        }
                    }
                    return measurements(m.interventionId()).collectList().flatMap(stored -> {
                        Measurement oldMeasurement = stored.stream().filter(x -> x.windowDays() == m.windowDays()).findFirst()
                                .orElse(null);
                        if (oldMeasurement != null && !supersedes(m, oldMeasurement)) {
                            return Mono.just("older than the stored measurement of its window");
                        }
                        return apply(m, oldRow.orElse(null), oldMeasurement, stored).thenReturn("applied");
                    });
                });
    }

    /** Newer measuredAt wins; at the same measuredAt the larger eventId, so that every order ends alike. */
    static boolean supersedes(OutcomeMeasured m, Measurement stored) {
        int byTime = m.measuredAt().compareTo(stored.measuredAt());
        return byTime > 0 || byTime == 0 && m.eventId().compareTo(stored.eventId()) > 0;
    }

    /**
     * The measurement, the intervention and the scoreboard, impact and conversion rollups in one
     * statement (data-modifying CTEs, one round trip); what-works after it when an improvement is involved.
     */
    private Mono<Void> apply(OutcomeMeasured m, Intervention oldRow, Measurement oldMeasurement, List<Measurement> stored) {
        Measurement next = Measurement.of(m);
        List<Measurement> latest = new ArrayList<>(stored);
        latest.removeIf(x -> x.windowDays() == m.windowDays());
        latest.add(next);
        Flags flags = new Flags(latest.stream().anyMatch(Measurement::inFlight), latest.stream().anyMatch(Measurement::blind),
                latest.stream().anyMatch(Measurement::unmatchedUrl), latest.stream().anyMatch(Measurement::sensorGap),
                latest.stream().map(Measurement::measuredAt).max(Instant::compareTo).orElseThrow());
        Intervention row = nextIntervention(m, oldRow, flags);

        Statement statement = new Statement();
        statement.part(measurementUpsert(next, statement));
        statement.part(interventionUpsert(row, statement));
        scoreboard(oldRow, row, statement);
        impact(m.projectId(), row.intervenedOn(), oldMeasurement, next, statement);
        conversions(m.projectId(), oldMeasurement, next, statement);
        return statement.execute(db).then(whatWorks(oldRow, row));
    }

    private Intervention nextIntervention(OutcomeMeasured m, Intervention oldRow, Flags flags) {
        boolean canonicalRecord = m.windowDays() == OutcomeMeasured.CANONICAL_WINDOW;
        OutcomeMeasured canonical = canonicalRecord ? m : oldRow == null ? null : oldRow.canonical();
        OutcomeMeasured identity = canonical != null ? canonical : m;
        String result = Assessment.result(canonical);
        boolean improved = Assessment.IMPROVED.equals(result);
        return new Intervention(m.interventionId(), m.projectId(), identity.actionId(), identity.channel(),
                identity.actionType(), m.intervenedAt(), result,
                flags.inFlight() || canonical == null, flags.blind(), flags.unmatchedUrl(), flags.sensorGap(),
                canonical != null ? canonical.measuredAt() : flags.latest(),
                improved ? Assessment.impactScore(canonical) : null, improved ? Assessment.measuredEffect(canonical) : null,
                canonical);
    }

    // ---- reads

    private Mono<Intervention> intervention(UUID interventionId) {
        return db.sql("""
                SELECT intervention_id, project_id, action_id, channel, action_type, intervened_at, result, in_flight, blind,
                       unmatched_url, sensor_gap, measured_at, impact_score, measured_effect, canonical::text AS canonical
                FROM interventions WHERE intervention_id = :id FOR UPDATE""")
                .bind("id", interventionId)
                .map(this::interventionRow)
                .one();
    }

    private Intervention interventionRow(Readable row) {
        String canonical = row.get("canonical", String.class);
        return new Intervention(row.get("intervention_id", UUID.class), row.get("project_id", UUID.class),
                row.get("action_id", UUID.class), row.get("channel", String.class), row.get("action_type", String.class),
                row.get("intervened_at", Instant.class), row.get("result", String.class),
                row.get("in_flight", Boolean.class), row.get("blind", Boolean.class), row.get("unmatched_url", Boolean.class),
                row.get("sensor_gap", Boolean.class), row.get("measured_at", Instant.class),
                row.get("impact_score", Double.class), row.get("measured_effect", Double.class),
                canonical == null ? null : mapper.readValue(canonical, OutcomeMeasured.class));
    }

    private reactor.core.publisher.Flux<Measurement> measurements(UUID interventionId) {
        return db.sql("""
                SELECT * FROM measurements WHERE intervention_id = :id FOR UPDATE""")
                .bind("id", interventionId)
                .map(row -> new Measurement(row.get("intervention_id", UUID.class), row.get("window_days", Integer.class),
                        row.get("project_id", UUID.class), row.get("event_id", UUID.class), row.get("measured_at", Instant.class),
                        row.get("in_flight", Boolean.class), row.get("blind", Boolean.class),
                        row.get("unmatched_url", Boolean.class), row.get("sensor_gap", Boolean.class),
                        row.get("window_end_on", LocalDate.class), row.get("cit_measured", Boolean.class),
                        row.get("cit_delta", Double.class), row.get("presence_delta", Double.class),
                        row.get("af_measured", Boolean.class), row.get("af_delta", Double.class),
                        row.get("conv_covered", Boolean.class), row.get("conv_delta", Double.class)))
                .all();
    }

    // ---- writes

    private static String measurementUpsert(Measurement m, Statement st) {
        return """
                INSERT INTO measurements (intervention_id, window_days, project_id, event_id, measured_at, in_flight, blind,
                    unmatched_url, sensor_gap, window_end_on, cit_measured, cit_delta, presence_delta, af_measured, af_delta,
                    conv_covered, conv_delta)
                VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
                ON CONFLICT (intervention_id, window_days) DO UPDATE SET event_id = EXCLUDED.event_id,
                    measured_at = EXCLUDED.measured_at, in_flight = EXCLUDED.in_flight, blind = EXCLUDED.blind,
                    unmatched_url = EXCLUDED.unmatched_url, sensor_gap = EXCLUDED.sensor_gap,
                    window_end_on = EXCLUDED.window_end_on, cit_measured = EXCLUDED.cit_measured,
                    cit_delta = EXCLUDED.cit_delta, presence_delta = EXCLUDED.presence_delta,
                    af_measured = EXCLUDED.af_measured, af_delta = EXCLUDED.af_delta,
                    conv_covered = EXCLUDED.conv_covered, conv_delta = EXCLUDED.conv_delta""".formatted(
                st.bind(m.interventionId()), st.bind(m.windowDays()), st.bind(m.projectId()), st.bind(m.eventId()),
                st.bind(m.measuredAt()), st.bind(m.inFlight()), st.bind(m.blind()), st.bind(m.unmatchedUrl()),
                st.bind(m.sensorGap()), st.bind(m.windowEndOn()), st.bind(m.citMeasured()), st.bind(m.citDelta()),
                st.bind(m.presenceDelta()), st.bind(m.afMeasured()), st.bind(m.afDelta()), st.bind(m.convCovered()),
                st.bind(m.convDelta()));
    }

    private String interventionUpsert(Intervention i, Statement st) {
        return """
                INSERT INTO interventions (intervention_id, project_id, action_id, channel, action_type, intervened_at,
                    intervened_on, result, in_flight, blind, unmatched_url, sensor_gap, measured_at, impact_score,
                    measured_effect, canonical)
                VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, CAST(%s AS jsonb))
                ON CONFLICT (intervention_id) DO UPDATE SET action_id = EXCLUDED.action_id, channel = EXCLUDED.channel,
                    action_type = EXCLUDED.action_type, result = EXCLUDED.result, in_flight = EXCLUDED.in_flight,
                    blind = EXCLUDED.blind, unmatched_url = EXCLUDED.unmatched_url, sensor_gap = EXCLUDED.sensor_gap,
                    measured_at = EXCLUDED.measured_at, impact_score = EXCLUDED.impact_score,
                    measured_effect = EXCLUDED.measured_effect, canonical = EXCLUDED.canonical""".formatted(
                st.bind(i.interventionId()), st.bind(i.projectId()), st.bind(i.actionId()), st.bind(i.channel()),
                st.bindNullable(i.actionType(), String.class), st.bind(i.intervenedAt()), st.bind(i.intervenedOn()),
                st.bind(i.result()), st.bind(i.inFlight()), st.bind(i.blind()), st.bind(i.unmatchedUrl()),
                st.bind(i.sensorGap()), st.bind(i.measuredAt()), st.bindNullable(i.impactScore(), Double.class),
                st.bindNullable(i.measuredEffect(), Double.class),
                st.bindNullable(i.canonical() == null ? null : mapper.writeValueAsString(i.canonical()), String.class));
    }

    private static void scoreboard(Intervention oldRow, Intervention row, Statement st) {
        double[] delta = minus(scoreboard(row), oldRow == null ? null : scoreboard(oldRow));
        st.part(add("scoreboard_daily", SCOREBOARD, INTEGER_COLUMNS_SCOREBOARD, "project_id, day",
                new Object[] {row.projectId(), row.intervenedOn()}, delta, st));
    }

    static double[] scoreboard(Intervention i) {
        double[] v = new double[SCOREBOARD.length];
        v[Assessment.RESULTS.indexOf(i.result())] = 1;
        v[6] = i.inFlight() ? 1 : 0;
        v[7] = i.blind() ? 1 : 0;
        v[8] = i.unmatchedUrl() ? 1 : 0;
        v[9] = i.sensorGap() ? 1 : 0;
        if (Assessment.MEASURED.contains(i.result()) && i.canonical().citations() != null) {
            v[10] = i.canonical().citations().before();
            v[11] = i.canonical().citations().after();
        }
        return v;
    }

    private Mono<Void> whatWorks(Intervention oldRow, Intervention row) {
        WhatWorksKey oldKey = oldRow == null ? null : WhatWorksKey.of(oldRow);
        WhatWorksKey newKey = WhatWorksKey.of(row);
        if (oldKey != null && oldKey.equals(newKey)) {
            double[] delta = minus(whatWorks(row), whatWorks(oldRow));
            return addWhatWorks(newKey, delta, Assessment.IMPROVED.equals(row.result()) ? row.resultAvailableAt() : null,
                    delta[0] < 0);
        }
        Mono<Void> remove = oldKey == null || !Assessment.IMPROVED.equals(oldRow.result()) ? Mono.empty()
                : addWhatWorks(oldKey, negate(whatWorks(oldRow)), null, true);
        Mono<Void> add = !Assessment.IMPROVED.equals(row.result()) ? Mono.empty()
                : addWhatWorks(newKey, whatWorks(row), row.resultAvailableAt(), false);
        return remove.then(add);
    }

    static double[] whatWorks(Intervention i) {
        if (!Assessment.IMPROVED.equals(i.result())) {
            return new double[WHAT_WORKS.length];
        }
        return new double[] {1, i.impactScore(), i.measuredEffect()};
    }

    private Mono<Void> addWhatWorks(WhatWorksKey key, double[] delta, Instant availableAt, boolean recomputeLatest) {
        if (isZero(delta) && availableAt == null) {
            return Mono.empty();
        }
        DatabaseClient.GenericExecuteSpec spec = db.sql("""
                INSERT INTO what_works_daily (project_id, day, channel, action_type, improved, impact_sum, effect_sum,
                    last_available_at)
                VALUES (:project, :day, :channel, :type, :improved, :impact, :effect, :latest)
                ON CONFLICT (project_id, day, channel, action_type) DO UPDATE SET
                    improved = what_works_daily.improved + EXCLUDED.improved,
                    impact_sum = what_works_daily.impact_sum + EXCLUDED.impact_sum,
                    effect_sum = what_works_daily.effect_sum + EXCLUDED.effect_sum,
                    last_available_at = GREATEST(what_works_daily.last_available_at, EXCLUDED.last_available_at)""")
                .bind("project", key.projectId()).bind("day", key.day()).bind("channel", key.channel())
                .bind("type", key.actionType()).bind("improved", (int) delta[0]).bind("impact", delta[1])
                .bind("effect", delta[2]);
        spec = availableAt == null ? spec.bindNull("latest", Instant.class) : spec.bind("latest", availableAt);
        Mono<Void> upsert = spec.then();
        if (!recomputeLatest) {
            return upsert;
        }
        // an improvement left this key: its latest availability is that of the improvements still in it
        return upsert.then(db.sql("""
                UPDATE what_works_daily w SET last_available_at = (
                    SELECT max(i.intervened_at) + interval '14 days' FROM interventions i
                    WHERE i.project_id = w.project_id AND i.channel = w.channel AND coalesce(i.action_type, '') = w.action_type
                      AND i.result = 'improved'
                      AND i.intervened_at >= (CAST(w.day AS timestamp) AT TIME ZONE 'UTC') - interval '14 days'
                      AND i.intervened_at < (CAST(w.day AS timestamp) AT TIME ZONE 'UTC') - interval '13 days')
                WHERE project_id = :project AND day = :day AND channel = :channel AND action_type = :type""")
                .bind("project", key.projectId()).bind("day", key.day()).bind("channel", key.channel())
                .bind("type", key.actionType()).then());
    }

    private static void impact(UUID project, LocalDate day, Measurement oldMeasurement, Measurement next, Statement st) {
        double[] delta = minus(impact(next), oldMeasurement == null ? null : impact(oldMeasurement));
        st.part(add("impact_daily", IMPACT, -1, "project_id, day, window_days",
                new Object[] {project, day, next.windowDays()}, delta, st));
    }

    static double[] impact(Measurement m) {
        if (m.inFlight()) {
            return new double[] {1, 0, 0, 0, 0, 0};
        }
        return new double[] {0, m.citMeasured() ? 1 : 0, m.citDelta(), m.presenceDelta(), m.afMeasured() ? 1 : 0, m.afDelta()};
    }

    private static void conversions(UUID project, Measurement oldMeasurement, Measurement next, Statement st) {
        boolean remove = oldMeasurement != null && oldMeasurement.countsConversions();
        boolean add = next.countsConversions();
        if (remove && add && oldMeasurement.windowEndOn().equals(next.windowEndOn())) {
            // one row: one delta (two changes of the same row in one statement are not allowed)
            st.part(add("conversions_daily", CONVERSIONS, -1, "project_id, day, window_days",
                    new Object[] {project, next.windowEndOn(), next.windowDays()},
                    new double[] {0, next.convDelta() - oldMeasurement.convDelta()}, st));
            return;
        }
        if (remove) {
            st.part(add("conversions_daily", CONVERSIONS, -1, "project_id, day, window_days",
                    new Object[] {project, oldMeasurement.windowEndOn(), oldMeasurement.windowDays()},
                    new double[] {-1, -oldMeasurement.convDelta()}, st));
        }
        if (add) {
            st.part(add("conversions_daily", CONVERSIONS, -1, "project_id, day, window_days",
                    new Object[] {project, next.windowEndOn(), next.windowDays()}, new double[] {1, next.convDelta()}, st));
        }
    }

    /**
     * The upsert that adds {@code delta} to the rollup row of {@code key} (created at zero when
     * missing), or null when the delta is zero. The first {@code integerColumns} columns (with -1:
     * those named like counts) bind as integers.
     */
    private static String add(String table, String[] columns, int integerColumns, String keyColumns, Object[] key,
            double[] delta, Statement st) {
        if (isZero(delta)) {
            return null;
        }
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (").append(keyColumns);
        for (String c : columns) {
            sql.append(", ").append(c);
        }
        sql.append(") VALUES (");
        for (int k = 0; k < key.length; k++) {
            sql.append(k == 0 ? "" : ", ").append(st.bind(key[k]));
        }
        for (int c = 0; c < columns.length; c++) {
            boolean integer = integerColumns >= 0 ? c < integerColumns : isCount(columns[c]);
            sql.append(", ").append(integer ? st.bind((int) Math.round(delta[c])) : st.bind(delta[c]));
        }
        sql.append(") ON CONFLICT (").append(keyColumns).append(") DO UPDATE SET ");
        for (int c = 0; c < columns.length; c++) {
            sql.append(c == 0 ? "" : ", ").append(columns[c]).append(" = ").append(table).append('.').append(columns[c])
                    .append(" + EXCLUDED.").append(columns[c]);
        }
        return sql.toString();
    }

    /** Several writes as one statement of data-modifying CTEs, with numbered bind markers. */
    static final class Statement {

        private final List<String> parts = new ArrayList<>();
        private final List<Object> values = new ArrayList<>();

        String bind(Object value) {
            values.add(value);
            return "$" + values.size();
        }

        String bindNullable(Object value, Class<?> type) {
            values.add(value == null ? type : value);
            return "$" + values.size();
        }

        void part(String sql) {
            if (sql != null) {
                parts.add(sql);
            }
        }

        Mono<Void> execute(DatabaseClient db) {
            StringBuilder sql = new StringBuilder("WITH ");
            for (int i = 0; i < parts.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append("w").append(i).append(" AS (").append(parts.get(i)).append(" RETURNING 1)");
            }
            sql.append(" SELECT 1");
            DatabaseClient.GenericExecuteSpec spec = db.sql(sql.toString());
            for (int i = 0; i < values.size(); i++) {
                Object v = values.get(i);
                spec = v instanceof Class<?> type ? spec.bindNull(i, type) : spec.bind(i, v);
            }
            return spec.then();
        }
    }

    private static boolean isCount(String column) {
        return column.equals("in_flight") || column.endsWith("_measured") || column.equals("covered") || column.equals("improved");
    }

    static double[] minus(double[] a, double[] b) {
        double[] out = a.clone();
        if (b != null) {
            for (int i = 0; i < out.length; i++) {
                out[i] -= b[i];
            }
        }
        return out;
    }

    private static double[] negate(double[] a) {
        return minus(new double[a.length], a);
    }

    private static boolean isZero(double[] v) {
        return Arrays.stream(v).allMatch(x -> x == 0);
    }

    // ---- rows

    record Flags(boolean inFlight, boolean blind, boolean unmatchedUrl, boolean sensorGap, Instant latest) {
    }

    /** The stored intervention; {@code canonical} is its 14-day measurement, null until one arrives. */
    public record Intervention(UUID interventionId, UUID projectId, UUID actionId, String channel, String actionType,
            Instant intervenedAt, String result, boolean inFlight, boolean blind, boolean unmatchedUrl, boolean sensorGap,
            Instant measuredAt, Double impactScore, Double measuredEffect, OutcomeMeasured canonical) {

        public LocalDate intervenedOn() {
            return LocalDate.ofInstant(intervenedAt, ZoneOffset.UTC);
        }

        /** When the canonical (14-day) window closes: the result's availability time. */
        public Instant resultAvailableAt() {
            return intervenedAt.plus(Duration.ofDays(OutcomeMeasured.CANONICAL_WINDOW));
        }
    }

    record WhatWorksKey(UUID projectId, LocalDate day, String channel, String actionType) {

        static WhatWorksKey of(Intervention i) {
            return new WhatWorksKey(i.projectId(), LocalDate.ofInstant(i.resultAvailableAt(), ZoneOffset.UTC), i.channel(),
                    Objects.requireNonNullElse(i.actionType(), ""));
        }
    }

    /** The latest measurement of one window and what it contributes to the impact and conversion rollups. */
    record Measurement(UUID interventionId, int windowDays, UUID projectId, UUID eventId, Instant measuredAt,
            boolean inFlight, boolean blind, boolean unmatchedUrl, boolean sensorGap, LocalDate windowEndOn,
            boolean citMeasured, double citDelta, double presenceDelta, boolean afMeasured, double afDelta,
            boolean convCovered, double convDelta) {

        static Measurement of(OutcomeMeasured m) {
            OutcomeMeasured.Dimension c = m.citations();
            OutcomeMeasured.Dimension a = m.answerFetches();
            OutcomeMeasured.AnalyticsComparison ac = m.analyticsComparison();
            boolean conv = ac != null && ac.conversionsCovered();
            return new Measurement(m.interventionId(), m.windowDays(), m.projectId(), m.eventId(), m.measuredAt(),
                    m.inFlight(), m.blind(), m.unmatchedUrl(), m.sensorGap(),
                    LocalDate.ofInstant(m.windowEnd(), ZoneOffset.UTC),
                    c != null, c == null ? 0 : c.after() - c.before(),
                    c == null ? 0 : Assessment.presenceDelta(c, m.windowDays()),
                    a != null, a == null ? 0 : a.after() - a.before(),
                    conv, conv ? ac.after().conversions() - ac.before().conversions() : 0);
        }

        /** Attributed conversions count closed 30- and 90-day windows with covered conversions. */
        boolean countsConversions() {
            return !inFlight && convCovered && (windowDays == 30 || windowDays == 90);
        }
    }
}
