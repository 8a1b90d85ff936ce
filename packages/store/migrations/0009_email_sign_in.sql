-- Email proves who owns an address: one-time sign-in links (only a SHA-256 of the secret is kept),
-- and the mail that carries them. Mail is written here in the same transaction as the link; with
-- SMTP_URL it is then delivered (and its body dropped), without it this table is the outbox that
-- `pnpm cli mail list` shows.
create table email_links (
  token_hash text primary key,
  email text not null,
  -- The name given on the sign-up form: used only if the link makes a new account.
  name text not null default '',
  next text not null default '/account',
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index email_links_expiry on email_links (expires_at);

create table mail_outbox (
  id text primary key,
  -- Order of writing (several mails may share a timestamp).
  seq bigint generated always as identity,
  to_address text not null,
  subject text not null,
  -- Null once delivered: a sent mail's link is a secret that need not stay in the database.
  body text,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  attempts integer not null default 0,
  last_error text
);
create index mail_outbox_unsent on mail_outbox (created_at) where sent_at is null;
