-- E3's totalCount without counting the project's rows on every request (a count(*) walks every
-- index entry of the project: ~4 ms at 10,000 actions, on every page). Every insert, delete and
-- status change of an action appends a delta here, by trigger, so no write path can forget one;
-- readers sum a project's deltas, and ActionCounts compacts them to one row per project and status
-- every few seconds. Appending instead of updating one counter row per project keeps concurrent
-- writers of a project from queueing on that row (and from deadlocking on two of them).
CREATE TABLE action_count_deltas (
    project_id   UUID     NOT NULL,
    status_order SMALLINT NOT NULL,
    delta        BIGINT   NOT NULL
);
CREATE INDEX action_count_deltas_project ON action_count_deltas (project_id, status_order);

CREATE FUNCTION action_count_delta() RETURNS trigger LANGUAGE plpgsql
    SET search_path FROM CURRENT AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO action_count_deltas (project_id, status_order, delta) VALUES (OLD.project_id, OLD.status_order, -1);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO action_count_deltas (project_id, status_order, delta) VALUES (NEW.project_id, NEW.status_order, 1);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER actions_counted_insert_delete AFTER INSERT OR DELETE ON actions
    FOR EACH ROW EXECUTE FUNCTION action_count_delta();
CREATE TRIGGER actions_counted_update AFTER UPDATE ON actions
    FOR EACH ROW WHEN (OLD.status_order IS DISTINCT FROM NEW.status_order OR OLD.project_id IS DISTINCT FROM NEW.project_id)
    EXECUTE FUNCTION action_count_delta();

-- the actions already stored (the triggers hold off concurrent writers until this commits)
INSERT INTO action_count_deltas (project_id, status_order, delta)
SELECT project_id, status_order, count(*) FROM actions GROUP BY project_id, status_order;
