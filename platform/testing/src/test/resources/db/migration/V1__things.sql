CREATE TABLE things (
    id   UUID PRIMARY KEY,
    name TEXT NOT NULL
);
