-- The account pages: sign-in links, sessions and display names (src/storage/sessions/).
-- IF NOT EXISTS: the pages' first version created these tables outside the migrations.
CREATE TABLE IF NOT EXISTS sign_in_tokens (
  hash TEXT PRIMARY KEY, email TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, used_at BIGINT);
CREATE INDEX IF NOT EXISTS sign_in_tokens_email ON sign_in_tokens(email);
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, account_id TEXT NOT NULL REFERENCES accounts(id),
  created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account_id);
CREATE TABLE IF NOT EXISTS account_profiles (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id), display_name TEXT);
