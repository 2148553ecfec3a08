-- Wake-ups (platform): a committed insert into outbox notifies the channel wake.<schema> with the
-- payload 'outbox', and the service's relay (DatabaseWakeups, OutboxRelay) publishes at once
-- instead of at its next poll. PostgreSQL delivers the notification at commit, folds duplicates
-- within a transaction, and drops it on rollback. Repeatable: applied after the versioned
-- migrations, again whenever this file changes.
CREATE OR REPLACE FUNCTION outbox_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('wake.' || TG_TABLE_SCHEMA, 'outbox');
    RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS outbox_wake ON outbox;
CREATE TRIGGER outbox_wake AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_wake();
