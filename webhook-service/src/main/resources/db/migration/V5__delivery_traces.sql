-- Traces (issue 23): the W3C traceparent of the public event a delivery was made for (its Kafka
-- record's header at fan-out) or of the redeliver request, so that every attempt of the delivery,
-- first or retried, made at once or swept up later, logs and traces in the trace of the request
-- that caused the event. Null for deliveries made before, or for events that came without one.
ALTER TABLE deliveries ADD COLUMN traceparent TEXT;
