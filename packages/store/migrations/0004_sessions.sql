-- Browser sessions of people signed in to the pages (cookie holds the secret; only its hash is kept).
create table sessions (
  id text primary key,
  token_hash text not null unique,
  user_id text not null references users(id) on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index sessions_user on sessions (user_id);
