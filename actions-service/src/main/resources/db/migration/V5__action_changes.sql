-- E3's pages are kept rendered in memory (ActionListPages) under a key that every committed change
-- of a project's actions changes: the sum of the changes appended here by trigger, so no write path
-- can forget one, together with the last row's id. A reader takes the key before it reads a page, so
-- a page kept under a key is never older than the key says. Statement triggers append one row per
-- project and statement (a rank recomputation that updates a thousand rows appends one); appending
-- instead of bumping one counter row per project keeps concurrent writers of a project from queueing
-- on that row, as the count deltas of V3 do. ActionCountCompactor sums each project's rows up to one.
CREATE TABLE action_changes (
    id         BIGINT GENERATED ALWAYS AS IDENTITY,
    project_id UUID   NOT NULL,
    changes    BIGINT NOT NULL
);
CREATE INDEX action_changes_project ON action_changes (project_id, id);

CREATE FUNCTION action_changes_appended() RETURNS trigger LANGUAGE plpgsql
    SET search_path FROM CURRENT AS $$
BEGIN
    INSERT INTO action_changes (project_id, changes)
    SELECT project_id, count(*) FROM changed GROUP BY project_id;
    RETURN NULL;
END
$$;

-- a row moved to another project (no write path does) changes the old project's pages as well
CREATE FUNCTION action_changes_appended_on_update() RETURNS trigger LANGUAGE plpgsql
    SET search_path FROM CURRENT AS $$
BEGIN
    INSERT INTO action_changes (project_id, changes)
    SELECT project_id, count(*) FROM (
        SELECT project_id FROM changed
        UNION ALL
        SELECT o.project_id FROM previous o JOIN changed n ON n.id = o.id WHERE n.project_id <> o.project_id) AS rows
    GROUP BY project_id;
    RETURN NULL;
END
$$;

-- a trigger with a transition table serves one event, hence three
CREATE TRIGGER actions_changed_insert AFTER INSERT ON actions
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION action_changes_appended();
CREATE TRIGGER actions_changed_update AFTER UPDATE ON actions
    REFERENCING OLD TABLE AS previous NEW TABLE AS changed FOR EACH STATEMENT
    EXECUTE FUNCTION action_changes_appended_on_update();
CREATE TRIGGER actions_changed_delete AFTER DELETE ON actions
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION action_changes_appended();
