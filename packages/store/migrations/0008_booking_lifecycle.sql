-- Bookings made by people: who, where, what for the crew, holds of unpaid card bookings, weekly
-- series; payments at a gateway and the notifications that settle them; idempotent retries.
alter table bookings add column user_id text references users(id) on delete set null;
alter table bookings add column client_id text;
alter table bookings add column address_id text;
alter table bookings add column series_id text;
alter table bookings add column notes text not null default '';
alter table bookings add column hold_until timestamptz;
alter table bookings add column updated_at timestamptz not null default now();
-- Group walks: bookings that may share their walker (same group, same times) carry the same key.
alter table bookings add column share_key text;
update bookings set share_key = group_key || '@' || (extract(epoch from starts_at)::bigint)::text || '/' || (extract(epoch from ends_at)::bigint)::text
  where group_key is not null;
alter table bookings add constraint bookings_payment_status
  check (payment_status in ('PENDING', 'PAID', 'CASH_DUE', 'REFUND_REQUESTED', 'REFUNDED', 'VOID'));

-- Still: a resource can never be double-booked. Two live bookings of one resource may overlap only
-- when both belong to the same group walk at the same times (same share_key); its capacity is held
-- by the booking code under a lock.
alter table bookings drop constraint bookings_no_double_booking;
alter table bookings add constraint bookings_no_double_booking
  exclude using gist (business_id with =, resource_id with =, tstzrange(starts_at, ends_at) with &&, (coalesce(share_key, id)) with <>)
  where (status in ('PENDING', 'ACCEPTED'));

create index bookings_user_upcoming on bookings (user_id, starts_at) where status in ('PENDING', 'ACCEPTED');
create index bookings_holds on bookings (hold_until) where status in ('PENDING', 'ACCEPTED') and payment_status = 'PENDING';
-- Live bookings by their end, for the worker that marks them DONE.
create index bookings_live_ends on bookings (ends_at) where status in ('PENDING', 'ACCEPTED');
create index bookings_series on bookings (series_id, starts_at) where series_id is not null;

create table booking_series (
  id text primary key,
  user_id text not null references users(id) on delete cascade,
  business_id text not null references businesses(id) on delete cascade,
  -- What each week books: category, addressId, pets, resourceId, local time, days, payment method.
  template jsonb not null,
  booked_until timestamptz not null,
  cancelled_at timestamptz,
  created_at timestamptz not null default now()
);

-- One attempt to collect money for some bookings; `id` is the reference the gateway echoes back.
create table payments (
  id text primary key,
  business_id text not null references businesses(id) on delete cascade,
  user_id text references users(id) on delete set null,
  booking_ids text[] not null,
  amount_cents integer not null check (amount_cents > 0),
  currency text not null,
  gateway text not null,
  -- REFUND_DUE: money arrived for bookings another payment had already paid (an older link paid
  -- after a newer one): the operator returns it, then it is REFUNDED.
  status text not null default 'OPEN' check (status in ('OPEN', 'PAID', 'FAILED', 'EXPIRED', 'SUPERSEDED', 'REFUND_DUE', 'REFUNDED')),
  link_token_hash text not null unique,
  expires_at timestamptz not null,
  gateway_ref text,
  paid_at timestamptz,
  created_at timestamptz not null default now()
);
create index payments_bookings on payments using gin (booking_ids);

-- Every notification a gateway sent, kept raw for audit; one per gateway reference is applied.
create table payment_notifications (
  id text primary key,
  gateway text not null,
  gateway_ref text,
  payment_id text,
  outcome text not null,
  body text not null,
  received_at timestamptz not null default now()
);
create unique index payment_notifications_applied on payment_notifications (gateway, gateway_ref) where outcome = 'APPLIED';

-- Idempotency-Key: the first answer to a (person, key) is kept and given again to retries.
create table idempotency_keys (
  user_id text not null,
  key text not null,
  operation text not null,
  request_hash text not null,
  status integer,
  response jsonb,
  created_at timestamptz not null default now(),
  primary key (user_id, key)
);

-- Small service-wide settings made on first use (the sandbox gateway's signing secret).
create table settings (
  key text primary key,
  value text not null
);
