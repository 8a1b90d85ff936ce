-- Private iCalendar feeds (issue 30): a pet owner's bookings (`mine`), a staff member's own jobs at a
-- business (`my_jobs`) and all of a business's jobs (`business`, owners and managers). Each person
-- has at most one feed of each kind per business; the address's secret is kept only as its SHA-256
-- (like API keys and sign-in links), so a new one replaces it in place and the old one answers 404.
create table calendar_feeds (
  id text primary key,
  user_id text not null references users(id) on delete cascade,
  scope text not null check (scope in ('mine', 'my_jobs', 'business')),
  business_id text references businesses(id) on delete cascade,
  token_hash text not null unique,
  created_at timestamptz not null,
  rotated_at timestamptz,
  last_read_at timestamptz,
  check ((scope = 'mine') = (business_id is null))
);
create unique index calendar_feeds_one on calendar_feeds (user_id, scope, coalesce(business_id, ''));
