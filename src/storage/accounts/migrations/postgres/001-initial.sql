-- Accounts, API keys, usage counters, the quota ledger and the mail outbox. Times are BIGINT ms since
-- epoch, as in SQLite, so both stores share one model.
CREATE TABLE accounts (
  id TEXT PRIMARY KEY, email TEXT NOT NULL, plan TEXT NOT NULL, anchor BIGINT NOT NULL, created_at BIGINT NOT NULL);
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id), prefix TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE, created_at BIGINT NOT NULL, revoked_at BIGINT);
CREATE INDEX api_keys_account ON api_keys(account_id);
CREATE TABLE usage_counters (
  account_id TEXT NOT NULL REFERENCES accounts(id), period_start BIGINT NOT NULL,
  used INTEGER NOT NULL DEFAULT 0, committed INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (account_id, period_start));
CREATE TABLE ledger (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id), period_start BIGINT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('charge', 'refund')), amount INTEGER NOT NULL CHECK (amount > 0),
  refunded INTEGER NOT NULL DEFAULT 0, status TEXT CHECK (status IN ('pending', 'committed', 'refunded')),
  quota_limit INTEGER, request_id TEXT NOT NULL, endpoint TEXT NOT NULL, ref_id TEXT, created_at BIGINT NOT NULL,
  seq BIGSERIAL);
CREATE INDEX ledger_account ON ledger(account_id, created_at);
CREATE INDEX ledger_pending ON ledger(created_at) WHERE status = 'pending';
CREATE TABLE outbox (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id), period_start BIGINT NOT NULL,
  threshold INTEGER NOT NULL, used INTEGER NOT NULL, quota_limit INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at BIGINT NOT NULL, claimed_by TEXT, claimed_until BIGINT,
  last_error TEXT, created_at BIGINT NOT NULL, sent_at BIGINT, UNIQUE (account_id, period_start, threshold));
CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE sent_at IS NULL;
