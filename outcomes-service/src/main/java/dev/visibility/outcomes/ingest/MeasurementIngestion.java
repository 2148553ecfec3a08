package dev.visibility.outcomes.ingest;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import dev.visibility.platform.consumer.PoisonRecord;
import dev.visibility.platform.events.OutcomeMeasured;
import io.r2dbc.spi.Readable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;

/**
 * Applies a poll of {@code outcomes.measurements} records inside the consumer's transaction (the
 * platform claims their eventIds in the same transaction). Each record, in order, is kept when it is
 * the latest measurement of its window, recomputes the intervention's result and flags, and moves the rollups by the difference
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

    /**
     * Applies a poll's records (in their order) inside the consumer's transaction: reads the stored
     * interventions and measurements they touch with one query each (locked), folds the records
     * into them in memory exactly as one record at a time would, and writes the changed rows and the
     * rollup deltas summed per key with one statement (plus one for what-works keys an improvement
     * left). A record that can never apply fails the batch with a {@link PoisonRecord} naming it: the
     * platform dead-letters it and hands over the rest of the batch again.
     */
    public Mono<Void> ingestAll(List<OutcomeMeasured> records) {
        if (records.isEmpty()) {
            return Mono.empty();
        }
        UUID[] ids = records.stream().map(OutcomeMeasured::interventionId).distinct().toArray(UUID[]::new);
        return interventions(ids).collectMap(Intervention::interventionId)
                .flatMap(rows -> measurements(ids).collectMultimap(Measurement::interventionId).map(stored -> {
                    Changes changes = new Changes(rows, stored);
                    records.forEach(changes::add);
                    return changes;
                }))
                .flatMap(this::write);
    }

    /** Newer measuredAt wins; at the same measuredAt the larger eventId, so that every order ends alike. */
    static boolean supersedes(OutcomeMeasured m, Measurement stored) {
        int byTime = m.measuredAt().compareTo(stored.measuredAt());
        return byTime > 0 || byTime == 0 && m.eventId().compareTo(stored.eventId()) > 0;
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

    private reactor.core.publisher.Flux<Intervention> interventions(UUID[] ids) {
        return db.sql("""
                SELECT intervention_id, project_id, action_id, channel, action_type, intervened_at, result, in_flight, blind,
                       unmatched_url, sensor_gap, measured_at, impact_score, measured_effect, canonical::text AS canonical
                FROM interventions WHERE intervention_id = ANY(:ids) ORDER BY intervention_id FOR UPDATE""")
                .bind("ids", ids)
                .map(this::interventionRow)
                .all();
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

    private reactor.core.publisher.Flux<Measurement> measurements(UUID[] ids) {
        return db.sql("""
                SELECT * FROM measurements WHERE intervention_id = ANY(:ids) ORDER BY intervention_id, window_days FOR UPDATE""")
                .bind("ids", ids)
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

    // ---- a batch folded in memory

    /** A what-works key's change: the summed delta, the latest availability added, whether an improvement left it. */
    static final class WhatWorksChange {
        final double[] delta = new double[WHAT_WORKS.length];
        Instant availableAt;
        boolean recompute;
    }

    /**
     * The stored rows a batch touches, updated record by record as the one-at-a-time ingestion would,
     * and what the batch changes: the final intervention and measurement rows, and the rollup deltas
     * summed per rollup key (so that each rollup row is written once).
     */
    final class Changes {

        private final Map<UUID, Intervention> rows;
        private final Map<UUID, List<Measurement>> stored;
        final Map<UUID, Intervention> changedRows = new LinkedHashMap<>();
        final Map<List<Object>, Measurement> changedMeasurements = new LinkedHashMap<>();
        /** (project, day) */
        final Map<List<Object>, double[]> scoreboard = new LinkedHashMap<>();
        /** (project, day, window) */
        final Map<List<Object>, double[]> impact = new LinkedHashMap<>();
        /** (project, day the window closed, window) */
        final Map<List<Object>, double[]> conversions = new LinkedHashMap<>();
        final Map<WhatWorksKey, WhatWorksChange> whatWorks = new LinkedHashMap<>();

        Changes(Map<UUID, Intervention> rows, Map<UUID, ? extends java.util.Collection<Measurement>> stored) {
            this.rows = new HashMap<>(rows);
            this.stored = new HashMap<>();
            stored.forEach((id, list) -> this.stored.put(id, new ArrayList<>(list)));
        }

        void add(OutcomeMeasured m) {
            Intervention oldRow = rows.get(m.interventionId());
            if (oldRow != null) {
                if (!oldRow.projectId().equals(m.projectId())) {
                    throw new PoisonRecord("interventionId belongs to another project", m);
                }
                if (!oldRow.intervenedAt().equals(m.intervenedAt())) {
                    throw new PoisonRecord("intervenedAt differs from the intervention's earlier records", m);
                }
            }
            List<Measurement> latest = stored.computeIfAbsent(m.interventionId(), id -> new ArrayList<>());
            Measurement oldMeasurement = latest.stream().filter(x -> x.windowDays() == m.windowDays()).findFirst().orElse(null);
            if (oldMeasurement != null && !supersedes(m, oldMeasurement)) {
                return; // older than the stored measurement of its window
            }
            Measurement next = Measurement.of(m);
            latest.removeIf(x -> x.windowDays() == m.windowDays());
            latest.add(next);
            Flags flags = new Flags(latest.stream().anyMatch(Measurement::inFlight), latest.stream().anyMatch(Measurement::blind),
                    latest.stream().anyMatch(Measurement::unmatchedUrl), latest.stream().anyMatch(Measurement::sensorGap),
                    latest.stream().map(Measurement::measuredAt).max(Instant::compareTo).orElseThrow());
            Intervention row = nextIntervention(m, oldRow, flags);
            rows.put(row.interventionId(), row);
            changedRows.put(row.interventionId(), row);
            changedMeasurements.put(List.of(next.interventionId(), next.windowDays()), next);

            sum(scoreboard, List.of(row.projectId(), row.intervenedOn()),
                    minus(scoreboard(row), oldRow == null ? null : scoreboard(oldRow)));
            sum(impact, List.of(m.projectId(), row.intervenedOn(), next.windowDays()),
                    minus(impact(next), oldMeasurement == null ? null : impact(oldMeasurement)));
            if (oldMeasurement != null && oldMeasurement.countsConversions()) {
                sum(conversions, List.of(m.projectId(), oldMeasurement.windowEndOn(), oldMeasurement.windowDays()),
                        new double[] {-1, -oldMeasurement.convDelta()});
            }
            if (next.countsConversions()) {
                sum(conversions, List.of(m.projectId(), next.windowEndOn(), next.windowDays()),
                        new double[] {1, next.convDelta()});
            }
            whatWorks(oldRow, row);
        }

        private void whatWorks(Intervention oldRow, Intervention row) {
            WhatWorksKey oldKey = oldRow == null ? null : WhatWorksKey.of(oldRow);
            WhatWorksKey newKey = WhatWorksKey.of(row);
            if (oldKey != null && oldKey.equals(newKey)) {
                double[] delta = minus(MeasurementIngestion.whatWorks(row), MeasurementIngestion.whatWorks(oldRow));
                whatWorksChange(newKey, delta, Assessment.IMPROVED.equals(row.result()) ? row.resultAvailableAt() : null,
                        delta[0] < 0);
                return;
            }
            if (oldKey != null && Assessment.IMPROVED.equals(oldRow.result())) {
                whatWorksChange(oldKey, negate(MeasurementIngestion.whatWorks(oldRow)), null, true);
            }
            if (Assessment.IMPROVED.equals(row.result())) {
                whatWorksChange(newKey, MeasurementIngestion.whatWorks(row), row.resultAvailableAt(), false);
            }
        }

        private void whatWorksChange(WhatWorksKey key, double[] delta, Instant availableAt, boolean recomputeLatest) {
            if (isZero(delta) && availableAt == null) {
                return;
            }
            WhatWorksChange change = whatWorks.computeIfAbsent(key, k -> new WhatWorksChange());
            for (int i = 0; i < delta.length; i++) {
                change.delta[i] += delta[i];
            }
            if (availableAt != null && (change.availableAt == null || availableAt.isAfter(change.availableAt))) {
                change.availableAt = availableAt;
            }
            change.recompute |= recomputeLatest;
        }

        private static void sum(Map<List<Object>, double[]> rollup, List<Object> key, double[] delta) {
            double[] total = rollup.computeIfAbsent(key, k -> new double[delta.length]);
            for (int i = 0; i < delta.length; i++) {
                total[i] += delta[i];
            }
        }
    }

    // ---- writes

    /**
     * The batch's rows and rollup deltas with one statement of data-modifying CTEs over unnested
     * arrays (one row per key); then, for what-works keys an improvement left, their latest
     * availability recomputed from the interventions as now written.
     */
    private Mono<Void> write(Changes changes) {
        Parts parts = new Parts();
        measurements(changes.changedMeasurements.values(), parts);
        interventions(changes.changedRows.values(), parts);
        rollup(parts, "scoreboard_daily", new String[] {"project_id", "day"}, SCOREBOARD,
                c -> c < INTEGER_COLUMNS_SCOREBOARD, changes.scoreboard);
        rollup(parts, "impact_daily", new String[] {"project_id", "day", "window_days"}, IMPACT,
                c -> isCount(IMPACT[c]), changes.impact);
        rollup(parts, "conversions_daily", new String[] {"project_id", "day", "window_days"}, CONVERSIONS,
                c -> isCount(CONVERSIONS[c]), changes.conversions);
        whatWorks(changes.whatWorks, parts);
        List<WhatWorksKey> recompute = changes.whatWorks.entrySet().stream().filter(e -> e.getValue().recompute)
                .map(Map.Entry::getKey).toList();
        return parts.execute(db).then(recompute.isEmpty() ? Mono.empty() : recomputeLatest(recompute));
    }

    private static void measurements(java.util.Collection<Measurement> rows, Parts parts) {
        if (rows.isEmpty()) {
            return;
        }
        Columns c = new Columns(rows.size());
        for (Measurement m : rows) {
            c.add("iid", m.interventionId()).add("win", m.windowDays()).add("pid", m.projectId()).add("eid", m.eventId())
                    .add("mat", m.measuredAt().toString()).add("inf", m.inFlight()).add("bli", m.blind())
                    .add("unm", m.unmatchedUrl()).add("sen", m.sensorGap()).add("weo", (int) m.windowEndOn().toEpochDay())
                    .add("cm", m.citMeasured()).add("cd", m.citDelta()).add("pd", m.presenceDelta())
                    .add("am", m.afMeasured()).add("ad", m.afDelta()).add("cc", m.convCovered()).add("cv", m.convDelta());
        }
        parts.add("""
                INSERT INTO measurements (intervention_id, window_days, project_id, event_id, measured_at, in_flight, blind,
                    unmatched_url, sensor_gap, window_end_on, cit_measured, cit_delta, presence_delta, af_measured, af_delta,
                    conv_covered, conv_delta)
                SELECT iid, win, pid, eid, mat::timestamptz, inf, bli, unm, sen, DATE '1970-01-01' + weo, cm, cd, pd, am, ad, cc, cv
                FROM unnest(%s) AS x(iid, win, pid, eid, mat, inf, bli, unm, sen, weo, cm, cd, pd, am, ad, cc, cv)
                ON CONFLICT (intervention_id, window_days) DO UPDATE SET event_id = EXCLUDED.event_id,
                    measured_at = EXCLUDED.measured_at, in_flight = EXCLUDED.in_flight, blind = EXCLUDED.blind,
                    unmatched_url = EXCLUDED.unmatched_url, sensor_gap = EXCLUDED.sensor_gap,
                    window_end_on = EXCLUDED.window_end_on, cit_measured = EXCLUDED.cit_measured,
                    cit_delta = EXCLUDED.cit_delta, presence_delta = EXCLUDED.presence_delta,
                    af_measured = EXCLUDED.af_measured, af_delta = EXCLUDED.af_delta,
                    conv_covered = EXCLUDED.conv_covered, conv_delta = EXCLUDED.conv_delta""", c,
                "uuid", "int", "uuid", "uuid", "text", "boolean", "boolean", "boolean", "boolean", "int", "boolean",
                "float8", "float8", "boolean", "float8", "boolean", "float8");
    }

    private void interventions(java.util.Collection<Intervention> rows, Parts parts) {
        if (rows.isEmpty()) {
            return;
        }
        Columns c = new Columns(rows.size());
        for (Intervention i : rows) {
            c.add("iid", i.interventionId()).add("pid", i.projectId()).add("aid", i.actionId()).add("ch", i.channel())
                    .add("aty", i.actionType()).add("iat", i.intervenedAt().toString())
                    .add("ion", (int) i.intervenedOn().toEpochDay()).add("res", i.result()).add("inf", i.inFlight())
                    .add("bli", i.blind()).add("unm", i.unmatchedUrl()).add("sen", i.sensorGap())
                    .add("mat", i.measuredAt().toString()).add("isc", i.impactScore()).add("eff", i.measuredEffect())
                    .add("can", i.canonical() == null ? null : mapper.writeValueAsString(i.canonical()));
        }
        parts.add("""
                INSERT INTO interventions (intervention_id, project_id, action_id, channel, action_type, intervened_at,
                    intervened_on, result, in_flight, blind, unmatched_url, sensor_gap, measured_at, impact_score,
                    measured_effect, canonical)
                SELECT iid, pid, aid, ch, aty, iat::timestamptz, DATE '1970-01-01' + ion, res, inf, bli, unm, sen,
                       mat::timestamptz, isc, eff, can::jsonb
                FROM unnest(%s) AS x(iid, pid, aid, ch, aty, iat, ion, res, inf, bli, unm, sen, mat, isc, eff, can)
                ON CONFLICT (intervention_id) DO UPDATE SET action_id = EXCLUDED.action_id, channel = EXCLUDED.channel,
                    action_type = EXCLUDED.action_type, result = EXCLUDED.result, in_flight = EXCLUDED.in_flight,
                    blind = EXCLUDED.blind, unmatched_url = EXCLUDED.unmatched_url, sensor_gap = EXCLUDED.sensor_gap,
                    measured_at = EXCLUDED.measured_at, impact_score = EXCLUDED.impact_score,
                    measured_effect = EXCLUDED.measured_effect, canonical = EXCLUDED.canonical""", c,
                "uuid", "uuid", "uuid", "text", "text", "text", "int", "text", "boolean", "boolean", "boolean", "boolean",
                "text", "float8", "float8", "text");
    }

    /**
     * The upsert that adds each key's delta to its rollup row (created at zero when missing); keys
     * whose delta is zero are left out. Keys are (project_id uuid, day date[, window_days int]);
     * columns for which {@code integer} holds bind as integers.
     */
    private static void rollup(Parts parts, String table, String[] keyColumns, String[] columns,
            java.util.function.IntPredicate integer, Map<List<Object>, double[]> deltas) {
        Columns c = new Columns(deltas.size());
        deltas.forEach((key, delta) -> {
            if (isZero(delta)) {
                return;
            }
            c.add("k0", (UUID) key.get(0)).add("k1", (int) ((LocalDate) key.get(1)).toEpochDay());
            if (key.size() > 2) {
                c.add("k2", (Integer) key.get(2));
            }
            for (int i = 0; i < columns.length; i++) {
                if (integer.test(i)) {
                    c.add("v" + i, (int) Math.round(delta[i]));
                } else {
                    c.add("v" + i, delta[i]);
                }
            }
        });
        if (c.rows() == 0) {
            return;
        }
        List<String> types = new ArrayList<>(List.of("uuid", "int"));
        StringBuilder names = new StringBuilder("k0, k1");
        StringBuilder select = new StringBuilder("k0, DATE '1970-01-01' + k1");
        if (keyColumns.length > 2) {
            types.add("int");
            names.append(", k2");
            select.append(", k2");
        }
        StringBuilder set = new StringBuilder();
        for (int i = 0; i < columns.length; i++) {
            types.add(integer.test(i) ? "int" : "float8");
            names.append(", v").append(i);
            select.append(", v").append(i);
            set.append(i == 0 ? "" : ", ").append(columns[i]).append(" = ").append(table).append('.').append(columns[i])
                    .append(" + EXCLUDED.").append(columns[i]);
        }
        String keys = String.join(", ", keyColumns);
        parts.add("INSERT INTO " + table + " (" + keys + ", " + String.join(", ", columns) + ") SELECT " + select
                + " FROM unnest(%s) AS x(" + names + ") ON CONFLICT (" + keys + ") DO UPDATE SET " + set, c,
                types.toArray(String[]::new));
    }

    private static void whatWorks(Map<WhatWorksKey, WhatWorksChange> changes, Parts parts) {
        if (changes.isEmpty()) {
            return;
        }
        Columns c = new Columns(changes.size());
        changes.forEach((key, change) -> c.add("pid", key.projectId()).add("day", (int) key.day().toEpochDay())
                .add("ch", key.channel()).add("aty", key.actionType()).add("imp", (int) Math.round(change.delta[0]))
                .add("isum", change.delta[1]).add("esum", change.delta[2])
                .add("lat", change.availableAt == null ? null : change.availableAt.toString()));
        parts.add("""
                INSERT INTO what_works_daily (project_id, day, channel, action_type, improved, impact_sum, effect_sum,
                    last_available_at)
                SELECT pid, DATE '1970-01-01' + day, ch, aty, imp, isum, esum, lat::timestamptz
                FROM unnest(%s) AS x(pid, day, ch, aty, imp, isum, esum, lat)
                ON CONFLICT (project_id, day, channel, action_type) DO UPDATE SET
                    improved = what_works_daily.improved + EXCLUDED.improved,
                    impact_sum = what_works_daily.impact_sum + EXCLUDED.impact_sum,
                    effect_sum = what_works_daily.effect_sum + EXCLUDED.effect_sum,
                    last_available_at = GREATEST(what_works_daily.last_available_at, EXCLUDED.last_available_at)""", c,
                "uuid", "int", "text", "text", "int", "float8", "float8", "text");
    }

    /** An improvement left these keys: their latest availability is that of the improvements still in them. */
    private Mono<Void> recomputeLatest(List<WhatWorksKey> keys) {
        Columns c = new Columns(keys.size());
        keys.forEach(key -> c.add("pid", key.projectId()).add("day", (int) key.day().toEpochDay()).add("ch", key.channel())
                .add("aty", key.actionType()));
        Parts parts = new Parts();
        parts.add("""
                UPDATE what_works_daily w SET last_available_at = (
                    SELECT max(i.intervened_at) + interval '14 days' FROM interventions i
                    WHERE i.project_id = w.project_id AND i.channel = w.channel AND coalesce(i.action_type, '') = w.action_type
                      AND i.result = 'improved'
                      AND i.intervened_at >= (CAST(w.day AS timestamp) AT TIME ZONE 'UTC') - interval '14 days'
                      AND i.intervened_at < (CAST(w.day AS timestamp) AT TIME ZONE 'UTC') - interval '13 days')
                FROM unnest(%s) AS x(pid, day, ch, aty)
                WHERE w.project_id = x.pid AND w.day = DATE '1970-01-01' + x.day AND w.channel = x.ch
                  AND w.action_type = x.aty""", c, "uuid", "int", "text", "text");
        return parts.execute(db);
    }

    /** Column arrays of an unnest, filled row by row (each {@code add} appends to the named column). */
    static final class Columns {

        private final int capacity;
        private final Map<String, List<Object>> columns = new LinkedHashMap<>();
        private final Map<String, Class<?>> types = new HashMap<>();

        Columns(int capacity) {
            this.capacity = capacity;
        }

        private Columns add(String column, Object value) {
            columns.computeIfAbsent(column, k -> new ArrayList<>(capacity)).add(value);
            return this;
        }

        Columns add(String column, UUID value) {
            types.putIfAbsent(column, UUID.class);
            return add(column, (Object) value);
        }

        Columns add(String column, String value) {
            types.putIfAbsent(column, String.class);
            return add(column, (Object) value);
        }

        Columns add(String column, Integer value) {
            types.putIfAbsent(column, Integer.class);
            return add(column, (Object) value);
        }

        Columns add(String column, Double value) {
            types.putIfAbsent(column, Double.class);
            return add(column, (Object) value);
        }

        Columns add(String column, Boolean value) {
            types.putIfAbsent(column, Boolean.class);
            return add(column, (Object) value);
        }

        int rows() {
            return columns.isEmpty() ? 0 : columns.values().iterator().next().size();
        }

        /** The columns in the order they were first added, as typed arrays. */
        List<Object> arrays() {
            List<Object> arrays = new ArrayList<>();
            columns.forEach((name, values) -> {
                Object array = java.lang.reflect.Array.newInstance(types.get(name), values.size());
                for (int i = 0; i < values.size(); i++) {
                    java.lang.reflect.Array.set(array, i, values.get(i));
                }
                arrays.add(array);
            });
            return arrays;
        }
    }

    /** Several writes as one statement of data-modifying CTEs, with numbered bind markers. */
    static final class Parts {

        private final List<String> parts = new ArrayList<>();
        private final List<Object> values = new ArrayList<>();

        /** {@code sql} with {@code %s} where the unnest's arguments go: the columns' arrays cast to {@code types}. */
        void add(String sql, Columns columns, String... types) {
            List<Object> arrays = columns.arrays();
            if (arrays.size() != types.length) {
                throw new IllegalStateException("Columns and types differ: " + arrays.size() + " and " + types.length);
            }
            StringBuilder args = new StringBuilder();
            for (int i = 0; i < arrays.size(); i++) {
                values.add(arrays.get(i));
                args.append(i == 0 ? "" : ", ").append('$').append(values.size()).append("::").append(types[i]).append("[]");
            }
            parts.add(sql.formatted(args));
        }

        Mono<Void> execute(DatabaseClient db) {
            if (parts.isEmpty()) {
                return Mono.empty();
            }
            StringBuilder sql = new StringBuilder();
            if (parts.size() == 1) {
                sql.append(parts.get(0));
            } else {
                sql.append("WITH ");
                for (int i = 0; i < parts.size() - 1; i++) {
                    sql.append(i == 0 ? "" : ", ").append("w").append(i).append(" AS (").append(parts.get(i)).append(")");
                }
                sql.append(' ').append(parts.get(parts.size() - 1));
            }
            DatabaseClient.GenericExecuteSpec spec = db.sql(sql.toString());
            for (int i = 0; i < values.size(); i++) {
                spec = spec.bind(i, values.get(i));
            }
            return spec.then();
        }
    }

    // ---- what a row contributes to the rollups

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

    static double[] whatWorks(Intervention i) {
        if (!Assessment.IMPROVED.equals(i.result())) {
            return new double[WHAT_WORKS.length];
        }
        return new double[] {1, i.impactScore(), i.measuredEffect()};
    }

    static double[] impact(Measurement m) {
        if (m.inFlight()) {
            return new double[] {1, 0, 0, 0, 0, 0};
        }
        return new double[] {0, m.citMeasured() ? 1 : 0, m.citDelta(), m.presenceDelta(), m.afMeasured() ? 1 : 0, m.afDelta()};
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
