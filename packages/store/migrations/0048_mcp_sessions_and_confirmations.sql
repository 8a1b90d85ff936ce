-- Issue 31, part 3: the person confirms a change on a page of ours when their MCP client can show
-- one (URL-mode elicitation, MCP 2025-11-25). Our MCP endpoints are stateless (a new server per
-- HTTP request), so what a client declared at `initialize` is kept here, under the Mcp-Session-Id
-- the initialize answer gave it (stored hashed, as tokens are): any instance reads it back with
-- one lookup by primary key.
create table mcp_sessions (
  id_hash text primary key,
  -- The endpoint it was opened on (`/mcp`, `/mcp/business`): a session is not carried across.
  endpoint text not null,
  protocol_version text not null,
  capabilities jsonb not null,
  client_name text,
  created_at timestamptz not null,
  -- Renewed (at most twice a day) while the session is used.
  expires_at timestamptz not null
);
create index mcp_sessions_expiry on mcp_sessions (expires_at);

-- A change asked of a person on the confirmation page (/confirm/<id>): bound to the person, the
-- operation and the call's arguments (a hash of them without `confirm`), with the summary shown;
-- answered once (confirmed or refused) and used once by the retried call, in its transaction.
create table confirmations (
  id text primary key,
  -- The order questions were asked in (created_at can tie: a clock, or two at once).
  seq bigint generated always as identity,
  user_id text not null references users (id) on delete cascade,
  operation text not null,
  args_hash text not null,
  summary text not null,
  parts jsonb not null,
  client_name text,
  status text not null default 'pending' check (status in ('pending', 'confirmed', 'refused')),
  created_at timestamptz not null,
  expires_at timestamptz not null,
  answered_at timestamptz,
  used_at timestamptz
);
-- The retried call's one read (the newest open confirmation of this person's call), and whether
-- the call was asked on the page at all (then only the page agrees to it).
create index confirmations_of_call on confirmations (user_id, operation, args_hash, seq desc);
create index confirmations_expiry on confirmations (expires_at);
