-- No-login sign-up drafts (prepareBusinessSignup). A draft is a DRAFT business application made for
-- the account with the given email (made if absent, without a password: only a sign-in link mailed
-- to that email opens it); without an email the draft keeps what was sent (`data`) and has no
-- application until someone signs in on its page and keeps it. Purged by the worker at `expires_at`
-- (30 days), with its application while still a DRAFT and an account made only for it.
create table signup_drafts (
  id text primary key,
  application_id text references business_applications(id) on delete cascade,
  user_id text references users(id) on delete cascade,
  -- The account was made by this draft (the purge may remove it when nothing else came of it).
  user_created boolean not null default false,
  -- As given, lowercased: counted by the per-email limit.
  email text,
  -- Who asked (the client address): counted by the per-caller limit.
  caller text not null,
  -- The draft as sent, kept only while it has no application (no email was given).
  data jsonb,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  check ((application_id is null) = (user_id is null)),
  check (application_id is not null or data is not null)
);
create index signup_drafts_caller on signup_drafts (caller, created_at);
create index signup_drafts_email on signup_drafts (email, created_at) where email is not null;
create index signup_drafts_expiry on signup_drafts (expires_at);
create index signup_drafts_user on signup_drafts (user_id) where user_id is not null;
