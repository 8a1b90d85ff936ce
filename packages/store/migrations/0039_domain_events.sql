-- Domain events: what changed that a person or business would be told about, written in the same
-- transaction as the change (a transactional outbox). Mails, webhooks and calendar feeds are made
-- from these rows by the worker, so nothing is ever sent for a change that rolled back.
-- The shapes are documented in docs/events.md; rows are never changed or removed.
create table domain_events (
  seq bigserial unique,
  id text primary key,
  type text not null check (type ~ '^[a-z_]+(\.[a-z_]+)+$'),
  version integer not null check (version >= 1),
  occurred_at timestamptz not null,
  -- The business it concerns (the booking's, the application's once approved) and the person
  -- (the pet owner, the applicant, the invited member once they have an account).
  business_id text,
  person_id text,
  subject_kind text not null,
  subject_id text not null,
  actor jsonb not null,
  data jsonb not null,
  -- The call that wrote it: the operation, the request id (for tracing; a caller may choose it)
  -- and the id runOperation gave this one call (unique: what tests hold a call's events by).
  operation text,
  request_id text,
  call_id text
);
create index domain_events_business on domain_events (business_id, seq);
create index domain_events_person on domain_events (person_id, seq);
create index domain_events_subject on domain_events (subject_id, seq);
create index domain_events_call on domain_events (call_id);

create function domain_events_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'domain_events is append-only';
end $$;
create trigger domain_events_no_change before update or delete on domain_events
  for each row execute function domain_events_append_only();
