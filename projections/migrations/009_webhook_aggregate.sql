-- The webhook each delivery belongs to (its aggregate id, "wh-<hash of
-- the URL>"), so the desk can ask that webhook to redeliver; '' for rows
-- projected before the column existed, until a rebuild fills them.
ALTER TABLE webhook_deliveries ADD COLUMN webhook TEXT NOT NULL DEFAULT '';
