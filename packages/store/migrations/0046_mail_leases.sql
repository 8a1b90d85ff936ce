-- Mail is claimed for a short lease and sent outside any transaction (docs/decisions.md, "Mail
-- to people", delivery): a sender no longer holds a row lock, and so a transaction id, while an
-- SMTP server answers, and the readers of the domain events are not held back by it. A sender
-- killed mid-send leaves the mail leased; once the lease has passed the next pass sends it again,
-- with the same Message-ID (at least once).
alter table mail_outbox add column leased_until timestamptz;
