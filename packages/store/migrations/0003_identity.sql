-- People, their pets and addresses, credentials (API keys and OAuth tokens, stored hashed),
-- connected assistants (OAuth clients), and an append-only audit log.
create table users (
  id text primary key,
  email text not null,
  name text not null default '',
  phone text not null default '',
  password_hash text,
  email_verified boolean not null default false,
  created_at timestamptz not null default now()
);
create unique index users_email on users (lower(email));

create table pets (
  id text primary key,
  user_id text not null references users(id) on delete cascade,
  name text not null,
  type text not null check (type in ('DOG', 'CAT')),
  breed text,
  weight_kg numeric(5,2) not null check (weight_kg > 0),
  coat text not null check (coat in ('SHORT', 'MEDIUM', 'LONG')),
  birth_year integer,
  notes text,
  client_name text,
  created_at timestamptz not null default now()
);
create index pets_user on pets (user_id, created_at);

create table addresses (
  id text primary key,
  user_id text not null references users(id) on delete cascade,
  label text not null,
  line1 text not null,
  suburb text,
  postal_code text,
  city text,
  country char(2),
  lat double precision,
  lng double precision,
  notes text,
  client_name text,
  created_at timestamptz not null default now()
);
create index addresses_user on addresses (user_id, created_at);

create table oauth_clients (
  id text primary key,
  name text not null,
  redirect_uris text[] not null default '{}',
  metadata jsonb not null default '{}',
  created_at timestamptz not null default now()
);

-- kind API_KEY: a personal key; ACCESS / REFRESH: OAuth tokens of a connection (client_id).
-- Only a SHA-256 of the secret is kept. family_id groups a connection's rotating refresh tokens.
create table credentials (
  id text primary key,
  user_id text not null references users(id) on delete cascade,
  kind text not null check (kind in ('API_KEY', 'ACCESS', 'REFRESH')),
  token_hash text not null unique,
  scopes text[] not null,
  client_id text references oauth_clients(id) on delete cascade,
  family_id text,
  name text not null default '',
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz not null default now()
);
create index credentials_user on credentials (user_id, kind);

create table audit_log (
  id bigserial primary key,
  at timestamptz not null default now(),
  user_id text,
  client_id text,
  client_name text,
  action text not null,
  target text,
  details jsonb not null default '{}'
);
create index audit_log_user on audit_log (user_id, at);

-- Append-only: the log can be added to, never changed or removed.
create function audit_log_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'audit_log is append-only';
end $$;
create trigger audit_log_no_change before update or delete on audit_log
  for each row execute function audit_log_append_only();
