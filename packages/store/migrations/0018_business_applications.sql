-- Pet businesses applying to run on the service: one row per application, owned by the account that
-- applies. What the steps gather is kept as given (JSON per part); approval turns it into a business.
create table business_applications (
  id text primary key,
  user_id text not null references users(id) on delete cascade,
  status text not null default 'DRAFT' check (status in ('DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED')),
  name text not null check (length(name) between 1 and 120),
  -- Business details of startBusinessSignup, as given (contact, town, categories, mode, counts, ...).
  details jsonb not null default '{}',
  country char(2),
  currency char(3),
  timezone text,
  services jsonb not null default '[]',
  area jsonb not null default '[]',
  resources jsonb not null default '[]',
  business_hours jsonb,
  staff_invites jsonb not null default '[]',
  gateway jsonb,
  claim_listing_id text references directory_listings(id) on delete set null,
  review_note text,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index business_applications_user on business_applications (user_id, created_at desc);
