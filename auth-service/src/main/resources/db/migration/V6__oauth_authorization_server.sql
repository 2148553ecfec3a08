-- Spring Security's authorization server (issue 20): its JDBC stores' tables, as its schema files
-- define them, with PostgreSQL types (text for blob, as the stores bind strings to it; timestamptz for timestamp).
CREATE TABLE oauth2_registered_client (
    id                            VARCHAR(100)  NOT NULL PRIMARY KEY,
    client_id                     VARCHAR(100)  NOT NULL,
    client_id_issued_at           TIMESTAMPTZ   NOT NULL DEFAULT now(),
    client_secret                 VARCHAR(200),
    client_secret_expires_at      TIMESTAMPTZ,
    client_name                   VARCHAR(200)  NOT NULL,
    client_authentication_methods VARCHAR(1000) NOT NULL,
    authorization_grant_types     VARCHAR(1000) NOT NULL,
    redirect_uris                 VARCHAR(1000),
    post_logout_redirect_uris     VARCHAR(1000),
    scopes                        VARCHAR(1000) NOT NULL,
    client_settings               VARCHAR(2000) NOT NULL,
    token_settings                VARCHAR(2000) NOT NULL
);

CREATE UNIQUE INDEX oauth2_registered_client_client_id ON oauth2_registered_client (client_id);

CREATE TABLE oauth2_authorization (
    id                            VARCHAR(100) NOT NULL PRIMARY KEY,
    registered_client_id          VARCHAR(100) NOT NULL,
    principal_name                VARCHAR(200) NOT NULL,
    authorization_grant_type      VARCHAR(100) NOT NULL,
    authorized_scopes             VARCHAR(1000),
    attributes                    TEXT,
    state                         VARCHAR(500),
    authorization_code_value      TEXT,
    authorization_code_issued_at  TIMESTAMPTZ,
    authorization_code_expires_at TIMESTAMPTZ,
    authorization_code_metadata   TEXT,
    access_token_value            TEXT,
    access_token_issued_at        TIMESTAMPTZ,
    access_token_expires_at       TIMESTAMPTZ,
    access_token_metadata         TEXT,
    access_token_type             VARCHAR(100),
    access_token_scopes           VARCHAR(1000),
    oidc_id_token_value           TEXT,
    oidc_id_token_issued_at       TIMESTAMPTZ,
    oidc_id_token_expires_at      TIMESTAMPTZ,
    oidc_id_token_metadata        TEXT,
    refresh_token_value           TEXT,
    refresh_token_issued_at       TIMESTAMPTZ,
    refresh_token_expires_at      TIMESTAMPTZ,
    refresh_token_metadata        TEXT,
    user_code_value               TEXT,
    user_code_issued_at           TIMESTAMPTZ,
    user_code_expires_at          TIMESTAMPTZ,
    user_code_metadata            TEXT,
    device_code_value             TEXT,
    device_code_issued_at         TIMESTAMPTZ,
    device_code_expires_at        TIMESTAMPTZ,
    device_code_metadata          TEXT
);

-- the stores look authorizations up by state and by each token's value
CREATE INDEX oauth2_authorization_state ON oauth2_authorization (state);
CREATE INDEX oauth2_authorization_principal ON oauth2_authorization (principal_name);

CREATE TABLE oauth2_authorization_consent (
    registered_client_id VARCHAR(100)  NOT NULL,
    principal_name       VARCHAR(200)  NOT NULL,
    authorities          VARCHAR(1000) NOT NULL,
    PRIMARY KEY (registered_client_id, principal_name)
);

-- What the member chose on the consent page for one authorization (one MCP connection): the
-- project and the capabilities. Tokens of the authorization carry them, never more; each token is
-- also narrowed to the member's current permissions when it is issued. Revoking a connection
-- removes its authorization (its refresh token stops working) and sets revoked_at here.
CREATE TABLE oauth_connections (
    authorization_id     VARCHAR(100) NOT NULL PRIMARY KEY,
    registered_client_id VARCHAR(100) NOT NULL,
    member_id            UUID         NOT NULL REFERENCES members (id),
    project_id           UUID         NOT NULL REFERENCES projects (id),
    capabilities         TEXT[]       NOT NULL,
    created_at           TIMESTAMPTZ  NOT NULL DEFAULT now(),
    revoked_at           TIMESTAMPTZ
);

CREATE INDEX oauth_connections_member ON oauth_connections (member_id, created_at DESC);

-- The authorization server's signing key (RS256), made once on the first start, so that every
-- replica and every restart publishes the same JWKS.
CREATE TABLE oauth_signing_keys (
    kid         TEXT        PRIMARY KEY,
    private_key TEXT        NOT NULL,
    public_key  TEXT        NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
