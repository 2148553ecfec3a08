-- A committed mark in rank_pending wakes the rank maintainer at once (RankMaintainer, through the
-- platform's DatabaseWakeups listening on wake.<schema>) instead of at its next poll. PostgreSQL
-- delivers the notification at commit and folds duplicates within a transaction.
CREATE FUNCTION rank_pending_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('wake.' || TG_TABLE_SCHEMA, 'rank_pending');
    RETURN NULL;
END
$$;

CREATE TRIGGER rank_pending_wake AFTER INSERT ON rank_pending FOR EACH STATEMENT EXECUTE FUNCTION rank_pending_wake();
