-- actions-service owns this schema alone; other services learn its data from Kafka or over HTTP.
COMMENT ON SCHEMA ${flyway:defaultSchema} IS 'owned by actions-service';
