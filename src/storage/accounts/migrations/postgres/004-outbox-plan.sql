-- A quota e-mail describes the plan as it was when the threshold was crossed, not as it is when
-- the mail goes out: the account's plan and anchor then. NULL on rows recorded before this.
ALTER TABLE outbox ADD COLUMN notice_plan TEXT, ADD COLUMN notice_anchor BIGINT;
