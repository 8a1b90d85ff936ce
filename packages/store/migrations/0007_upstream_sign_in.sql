-- Sign-in through an upstream OpenID Connect provider: logins waiting for its answer (any instance
-- can finish them), and the upstream identities linked to an account.
create table oidc_logins (
  state_hash text primary key,
  code_verifier text not null,
  nonce text not null,
  next text not null,
  expires_at timestamptz not null
);

create table user_identities (
  issuer text not null,
  subject text not null,
  user_id text not null references users(id) on delete cascade,
  email text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz not null default now(),
  primary key (issuer, subject)
);
create index user_identities_user on user_identities (user_id);
