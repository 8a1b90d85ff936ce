-- The operator's review of business applications: who may use the console, what a review
-- decided, and what approval turns an application into (members and invitations of a business).

-- Accounts allowed into the operator console (granted with `pnpm cli operator add`).
create table operators (
  user_id text primary key references users(id) on delete cascade,
  granted_at timestamptz not null,
  granted_by text not null
);

-- The business an approved application became, and who decided it when.
alter table business_applications add column business_id text references businesses(id) on delete set null;
alter table business_applications add column reviewed_at timestamptz;
alter table business_applications add column reviewed_by text;
create unique index business_applications_business on business_applications (business_id)
  where business_id is not null;

-- An area known only by a postal code or a suburb's name has no centre or radius yet; such an area
-- is kept (and approved) but covers nothing until it has both (loadOffer reads only those).
alter table service_areas alter column lat drop not null;
alter table service_areas alter column lng drop not null;
alter table service_areas alter column radius_km drop not null;

-- People of a business: the owner (the applicant), managers and crew.
create table business_members (
  business_id text not null references businesses(id) on delete cascade,
  user_id text not null references users(id) on delete cascade,
  role text not null check (role in ('owner', 'manager', 'crew')),
  job_title text,
  resource_ids text[] not null default '{}',
  created_at timestamptz not null,
  primary key (business_id, user_id)
);
create index business_members_user on business_members (user_id);

-- Staff invited by email or phone who have no account yet: they become members once they have one.
create table business_invitations (
  id text primary key,
  business_id text not null references businesses(id) on delete cascade,
  email text,
  phone text,
  role text not null check (role in ('manager', 'crew')),
  job_title text,
  resource_ids text[] not null default '{}',
  created_at timestamptz not null,
  accepted_at timestamptz,
  check (email is not null or phone is not null)
);
create index business_invitations_email on business_invitations (lower(email)) where accepted_at is null;
