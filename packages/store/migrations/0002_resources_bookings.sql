-- Who does the work (vans, walkers, sitters), when they work, when they are off, and what is booked.
create table resources (
  business_id text not null references businesses(id) on delete cascade,
  id text not null,
  kind text not null check (kind in ('VAN', 'WALKER', 'SITTER')),
  name text not null,
  -- {mon: [{start, end}], ...}: local working ranges, up to 6 a day; days off left out.
  week jsonb not null default '{}',
  slot_step_min integer not null default 30 check (slot_step_min between 5 and 240),
  travel_buffer_min integer check (travel_buffer_min between 0 and 240),
  active boolean not null default true,
  sort integer not null default 0,
  primary key (business_id, id)
);

-- Time off of one resource, or of the whole business (resource_id null: a public holiday).
create table time_off (
  id text primary key,
  business_id text not null references businesses(id) on delete cascade,
  resource_id text,
  starts_at timestamptz not null,
  ends_at timestamptz not null check (ends_at > starts_at),
  reason text not null default '',
  foreign key (business_id, resource_id) references resources(business_id, id) on delete cascade
);
create index time_off_business_range on time_off (business_id, starts_at, ends_at);

create table bookings (
  id text primary key,
  business_id text not null references businesses(id) on delete cascade,
  resource_id text not null,
  line_id text not null,
  status text not null default 'PENDING' check (status in ('PENDING', 'ACCEPTED', 'CANCELLED', 'EXPIRED', 'DONE')),
  payment_method text not null default 'CARD' check (payment_method in ('CARD', 'CASH')),
  payment_status text not null default 'PENDING',
  starts_at timestamptz not null,
  ends_at timestamptz not null check (ends_at > starts_at),
  -- Group walks: bookings of one group (its service) at one time share the walker, up to its capacity.
  group_key text,
  group_size integer not null default 1 check (group_size >= 1),
  total_cents integer not null default 0 check (total_cents >= 0),
  details jsonb not null default '{}',
  client_name text,
  created_at timestamptz not null default now(),
  foreign key (business_id, resource_id) references resources(business_id, id)
);
create index bookings_resource_time on bookings (business_id, resource_id, starts_at);

-- A resource can never be double-booked: overlapping live bookings on one resource are refused by
-- the database itself. Group walks are held to their capacity by the booking code instead.
alter table bookings add constraint bookings_no_double_booking
  exclude using gist (business_id with =, resource_id with =, tstzrange(starts_at, ends_at) with &&)
  where (status in ('PENDING', 'ACCEPTED') and group_key is null);
