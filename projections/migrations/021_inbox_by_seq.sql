-- The mailer reads the inbox rows one event made (every user's at once):
-- an index by sequence, as the inbox's key leads with the user.
CREATE INDEX inbox_by_seq ON inbox(seq);
