-- OAuth 2.1 for assistants: authorization requests waiting for the person, and single-use codes.
create table oauth_requests (
  id text primary key,
  client_id text not null references oauth_clients(id) on delete cascade,
  redirect_uri text not null,
  scopes text[] not null,
  state text,
  code_challenge text not null,
  resource text,
  expires_at timestamptz not null
);

create table oauth_codes (
  code_hash text primary key,
  client_id text not null references oauth_clients(id) on delete cascade,
  user_id text not null references users(id) on delete cascade,
  redirect_uri text not null,
  scopes text[] not null,
  code_challenge text not null,
  resource text,
  family_id text not null,
  expires_at timestamptz not null,
  used_at timestamptz
);

-- The resource (audience) a token was issued for: tokens are accepted only by it.
alter table credentials add column resource text;
