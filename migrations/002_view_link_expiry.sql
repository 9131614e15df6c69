-- expires_at is when a token stops opening its design (same text format as the other times), or
-- NULL for never. Only view tokens are given one: the edit link never expires.
ALTER TABLE tokens ADD COLUMN expires_at TEXT;
