-- Mail to people made from the domain events (docs/decisions.md, "Mail to people"): the outbox
-- grows an HTML part, attachments (an .ics), extra headers (List-Unsubscribe), a kind, whether the
-- mail is optional, retries with backoff and a failed state the operator sees. Sign-in link mails
-- (kind 'sign_in', every row before this migration) keep their own rule: tried each worker pass
-- while their link lives.
alter table mail_outbox
  add column html text,
  add column attachments jsonb not null default '[]',
  add column headers jsonb not null default '{}',
  add column kind text not null default 'sign_in',
  add column optional boolean not null default false,
  add column next_attempt_at timestamptz,
  add column failed_at timestamptz,
  -- The event the mail tells about: one mail of a kind per event and address (a second pass that
  -- read the same event again could not add another).
  add column event_id text;
create index mail_outbox_due on mail_outbox (next_attempt_at)
  where sent_at is null and failed_at is null and kind <> 'sign_in';
create index mail_outbox_failed on mail_outbox (failed_at desc) where failed_at is not null;
create unique index mail_outbox_event_once on mail_outbox (event_id, lower(to_address), kind)
  where event_id is not null;

-- Kinds of optional mail a person turned off, by address (a business's client may have no account).
create table notice_opt_outs (
  email text not null,
  kind text not null,
  at timestamptz not null,
  -- 'link' (List-Unsubscribe, one click) or 'account' (the /account page).
  via text not null,
  primary key (email, kind)
);

-- The one-click unsubscribe links of optional mails: only a SHA-256 of the secret is kept.
create table notice_unsubscribe_links (
  token_hash text primary key,
  email text not null,
  kind text not null,
  created_at timestamptz not null
);
create index notice_unsubscribe_links_age on notice_unsubscribe_links (created_at);

-- Which of its notifications a business wants (a kind absent: on).
create table business_notice_settings (
  business_id text not null references businesses(id) on delete cascade,
  kind text not null,
  enabled boolean not null,
  updated_at timestamptz not null,
  primary key (business_id, kind)
);

-- The reader of the events that mails are made from, starting with the events to come.
insert into event_readers (name, after_tx, after_seq)
  values ('notices', pg_current_xact_id(), 9223372036854775807);
