-- Foundation: tenants (businesses), their catalogue and service areas, leads, shared rate-limit counters.
create extension if not exists btree_gist;
create extension if not exists pg_trgm;

-- A business is the tenant. The operator (NogPets) is one, marked is_operator.
create table businesses (
  id text primary key,
  name text not null,
  country char(2) not null,
  currency char(3) not null,
  timezone text not null,
  service_fee_cents integer not null default 0 check (service_fee_cents >= 0),
  accepts_cash boolean not null default false,
  is_operator boolean not null default false,
  created_at timestamptz not null default now()
);
create unique index businesses_one_operator on businesses (is_operator) where is_operator;

-- Suburbs and localities a business serves (or proposes to serve: status PENDING).
create table service_areas (
  business_id text not null references businesses(id) on delete cascade,
  id text not null,
  name text not null,
  aliases text[] not null default '{}',
  postal_code text,
  lat double precision not null check (lat between -90 and 90),
  lng double precision not null check (lng between -180 and 180),
  radius_km numeric(6,2) not null check (radius_km > 0),
  zone text not null default 'core',
  town text not null,
  status text not null default 'APPROVED' check (status in ('PENDING', 'APPROVED', 'REJECTED')),
  sort integer not null default 0,
  primary key (business_id, id)
);

create table service_lines (
  business_id text not null references businesses(id) on delete cascade,
  id text not null check (id in ('grooming', 'walking', 'sitting')),
  label text not null,
  blurb text not null default '',
  duration_mode text not null check (duration_mode in ('SUM', 'MAX')),
  repeats boolean not null default false,
  sort integer not null default 0,
  primary key (business_id, id)
);

-- Which areas each line covers: walkers on foot cover fewer suburbs than vans.
create table line_areas (
  business_id text not null,
  line_id text not null,
  area_id text not null,
  primary key (business_id, line_id, area_id),
  foreign key (business_id, line_id) references service_lines(business_id, id) on delete cascade,
  foreign key (business_id, area_id) references service_areas(business_id, id) on delete cascade
);

create table services (
  business_id text not null,
  id text not null,
  line_id text not null,
  name text not null,
  kind text not null check (kind in ('PRIMARY', 'EXTRA')),
  blurb text not null default '',
  pet_types text[] not null check (cardinality(pet_types) > 0),
  price_cents integer not null check (price_cents >= 0),
  duration_min integer not null check (duration_min >= 0),
  group_size integer not null default 1 check (group_size >= 1),
  tiers jsonb not null default '[]',
  sort integer not null default 0,
  primary key (business_id, id),
  foreign key (business_id, line_id) references service_lines(business_id, id) on delete cascade
);

-- Requests we could not serve, for a person at the business to follow up (spec general rule 8).
create table leads (
  id text primary key,
  business_id text not null references businesses(id) on delete cascade,
  operation text not null,
  reason text not null,
  query jsonb not null,
  place jsonb,
  client_name text,
  status text not null default 'NEW' check (status in ('NEW', 'CONTACTED', 'CLOSED')),
  created_at timestamptz not null default now()
);
create index leads_business_created on leads (business_id, created_at desc);

-- Counters of rate-limiter-flexible (RateLimiterPostgres); created here so that instances starting
-- together do not race to create it. `expire` is epoch milliseconds.
create table rate_limits (
  key varchar(255) primary key,
  points integer not null default 0,
  expire bigint
);
create index rate_limits_expire on rate_limits (expire);

-- Towns near a business's territory (another town: not served, recorded as a lead).
create table nearby_towns (
  business_id text not null references businesses(id) on delete cascade,
  name text not null,
  country char(2) not null,
  postal_code text,
  lat double precision not null,
  lng double precision not null,
  primary key (business_id, name)
);
