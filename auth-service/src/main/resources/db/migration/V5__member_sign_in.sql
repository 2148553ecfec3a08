-- Members sign in with their email and password (issue 20). The hash is written by Spring
-- Security's delegating password encoder ("{bcrypt}..."); a member without one cannot sign in.
ALTER TABLE members ADD COLUMN password_hash TEXT;

-- Sign-in looks a member up by email across accounts: an email that signs in names one member.
CREATE UNIQUE INDEX members_sign_in_email ON members (lower(email)) WHERE password_hash IS NOT NULL;

-- Failed sign-ins per normalized email, for throttling (the email is stored as typed, lower-cased).
CREATE TABLE sign_in_failures (
    email        TEXT        PRIMARY KEY,
    failures     INTEGER     NOT NULL,
    last_failure TIMESTAMPTZ NOT NULL
);
