-- An audit row says what its event did as a message id and its named
-- arguments (a JSON object), which web/i18n words in the reader's language,
-- instead of one sentence in English and one in Chinese: the read model
-- holds no words (see projections/audit_messages.go).
--
-- Rows projected before keep their words: each becomes the message
-- "legacy" with its two sentences as one text in both languages, so the
-- desk, the exports and the API show them as before, in either language,
-- with no replay. `crossrank verify` lists these rows as differing from a
-- replay until `crossrank rebuild` says them anew (as after migration 005:
-- the read model does not hold the event's fields the messages take).
ALTER TABLE audit ADD COLUMN msg TEXT NOT NULL DEFAULT '';
ALTER TABLE audit ADD COLUMN args TEXT NOT NULL DEFAULT '{}';
UPDATE audit SET msg = 'legacy',
  args = json_object('text', json_object('zh', summary_zh, 'en', summary_en));
ALTER TABLE audit DROP COLUMN summary_en;
ALTER TABLE audit DROP COLUMN summary_zh;
