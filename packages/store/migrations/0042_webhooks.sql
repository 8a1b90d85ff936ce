-- Webhooks (issue 30): endpoints a business (owner/manager) or a person (an API consumer) registers,
-- and one delivery per (endpoint, event) made from the domain events by the `webhooks` reader.
-- docs/decisions.md "Webhooks"; docs/security.md "Webhooks" (SSRF, the stored signing secret).
create table webhook_endpoints (
  id text primary key,
  -- Exactly one owner: a business (its events) or a person (the events of their own bookings and orders).
  business_id text references businesses (id) on delete cascade,
  person_id text references users (id) on delete cascade,
  url text not null,
  description text,
  -- Event types it receives; '{*}' is every type the owner may receive.
  event_types text[] not null,
  -- The Standard Webhooks `whsec_` secret: kept readable, since signing needs it (shown once at creation).
  secret text not null,
  status text not null default 'ENABLED' check (status in ('ENABLED', 'DISABLED')),
  disabled_at timestamptz,
  disabled_reason text,
  last_success_at timestamptz,
  created_by text references users (id) on delete set null,
  created_at timestamptz not null,
  check ((business_id is null) <> (person_id is null))
);
create index webhook_endpoints_business on webhook_endpoints (business_id) where business_id is not null;
create index webhook_endpoints_person on webhook_endpoints (person_id) where person_id is not null;

create table webhook_deliveries (
  id text primary key,
  endpoint_id text not null references webhook_endpoints (id) on delete cascade,
  event_id text not null references domain_events (id),
  event_type text not null,
  -- PENDING: to send (again) at next_attempt_at; SUCCEEDED: a 2xx came back; FAILED: every attempt failed.
  status text not null default 'PENDING' check (status in ('PENDING', 'SUCCEEDED', 'FAILED')),
  -- Attempts in the current round (a redelivery starts a new round); claimed attempts count.
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_status integer,
  last_error text,
  created_at timestamptz not null,
  succeeded_at timestamptz,
  unique (endpoint_id, event_id)
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'PENDING';
create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, created_at desc, id desc);

insert into event_readers (name, after_tx, after_seq) values ('webhooks', pg_current_xact_id(), 9223372036854775807)
  on conflict (name) do nothing;
