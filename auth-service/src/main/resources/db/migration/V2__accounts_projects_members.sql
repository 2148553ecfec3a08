-- Accounts carry the plan; Plus and above hold the API Access entitlement (spec 5.11, 8).
CREATE TABLE accounts (
    id         UUID        PRIMARY KEY,
    name       TEXT        NOT NULL,
    plan       TEXT        NOT NULL CHECK (plan IN ('free', 'plus', 'pro', 'enterprise')),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- A project belongs to one account; features are entitlements such as 'agent-picks' (spec E1).
CREATE TABLE projects (
    id         UUID        PRIMARY KEY,
    account_id UUID        NOT NULL REFERENCES accounts (id),
    name       TEXT        NOT NULL,
    paused     BOOLEAN     NOT NULL DEFAULT false,
    features   TEXT[]      NOT NULL DEFAULT '{}',
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX projects_account ON projects (account_id, created_at);

-- Team members of one account. An owner holds every permission on every project of the account;
-- other members hold the permissions of their project_members rows.
CREATE TABLE members (
    id         UUID        PRIMARY KEY,
    account_id UUID        NOT NULL REFERENCES accounts (id),
    email      TEXT        NOT NULL,
    name       TEXT        NOT NULL,
    role       TEXT        NOT NULL CHECK (role IN ('owner', 'member')),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX members_account_email ON members (account_id, lower(email));

CREATE TABLE project_members (
    project_id  UUID   NOT NULL REFERENCES projects (id),
    member_id   UUID   NOT NULL REFERENCES members (id),
    permissions TEXT[] NOT NULL DEFAULT '{}',
    PRIMARY KEY (project_id, member_id)
);

CREATE INDEX project_members_member ON project_members (member_id);
