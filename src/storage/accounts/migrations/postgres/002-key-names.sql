-- Keys named on the account pages and their last use (written in batches); sign-in looks
-- accounts up by address, case-insensitively.
ALTER TABLE api_keys ADD COLUMN name TEXT, ADD COLUMN last_used_at BIGINT;
CREATE INDEX accounts_email ON accounts(lower(email));
