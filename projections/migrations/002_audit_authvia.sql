-- How each event's actor signed in: the ce-authvia attribute as stored
-- ("session", "cli", "token;id=…;name=…"); '' for events stored before the
-- attribute existed, which is exactly what a rebuild writes for them.
ALTER TABLE audit ADD COLUMN authvia TEXT NOT NULL DEFAULT '';
