-- The plan a charge was metered against: the quota e-mail its commit causes describes that plan,
-- even when the account's plan changed while the request ran. NULL on rows from before this.
ALTER TABLE ledger ADD COLUMN plan TEXT;
