-- Running a business (issue 15): its clients and their notes, and every booking linked to its
-- business's client.

-- A client of one business: a pet owner with an account (user_id) or someone the business knows by
-- name and phone only. One row per account per business.
create table business_clients (
  business_id text not null references businesses(id) on delete cascade,
  id text not null,
  user_id text references users(id) on delete set null,
  name text not null default '',
  phone text,
  email text,
  created_at timestamptz not null,
  primary key (business_id, id),
  unique (id)
);
create unique index business_clients_user on business_clients (business_id, user_id) where user_id is not null;
create index business_clients_name on business_clients (business_id, lower(name));

-- What the business keeps about a client or one of the client's pets (temperament, access codes,
-- vet). The author is kept by id and by name (the name as it was, even if the account goes).
create table client_notes (
  id text primary key,
  business_id text not null,
  client_id text not null,
  pet_id text,
  text text not null check (char_length(text) between 1 and 1000),
  author_user_id text,
  author_name text not null,
  created_at timestamptz not null,
  foreign key (business_id, client_id) references business_clients(business_id, id) on delete cascade
);
create index client_notes_client on client_notes (business_id, client_id, created_at desc);

-- A booking's client at its business.
alter table bookings add column business_client_id text;
alter table bookings add constraint bookings_business_client
  foreign key (business_id, business_client_id) references business_clients(business_id, id);
create index bookings_business_client on bookings (business_id, business_client_id, starts_at desc)
  where business_client_id is not null;
-- The business's bookings by time (day plans and lists page by (starts_at, id)).
create index bookings_business_time on bookings (business_id, starts_at, id);

-- The client of (business, account), made on first use: named, phoned and mailed as the account is.
create function business_client_of(p_business text, p_user text, p_at timestamptz) returns text language plpgsql as $$
declare
  found text;
begin
  insert into business_clients (business_id, id, user_id, name, phone, email, created_at)
  select p_business, 'cli_' || substr(md5(random()::text || clock_timestamp()::text || p_user), 1, 20), usr.id,
         case when usr.name <> '' then usr.name else split_part(usr.email, '@', 1) end,
         nullif(usr.phone, ''), usr.email, p_at
  from users usr where usr.id = p_user
  on conflict (business_id, user_id) where user_id is not null do nothing;
  select id into found from business_clients where business_id = p_business and user_id = p_user;
  return found;
end
$$;

-- Every booking made for an account is linked to that account's client at the booking's business,
-- in the booking's own statement: the one insert path of the booking core (place.ts) and any other
-- (the worker's weekly series, the operator's tools) alike.
create function bookings_client() returns trigger language plpgsql as $$
begin
  if new.business_client_id is null and new.user_id is not null then
    new.business_client_id := business_client_of(new.business_id, new.user_id, coalesce(new.created_at, now()));
  end if;
  return new;
end
$$;
create trigger bookings_client before insert on bookings for each row execute function bookings_client();

-- Bookings made before this migration.
insert into business_clients (business_id, id, user_id, name, phone, email, created_at)
select distinct on (b.business_id, b.user_id) b.business_id,
       'cli_' || substr(md5(b.business_id || '/' || b.user_id), 1, 20), u.id,
       case when u.name <> '' then u.name else split_part(u.email, '@', 1) end,
       nullif(u.phone, ''), u.email, b.created_at
from bookings b join users u on u.id = b.user_id
order by b.business_id, b.user_id, b.created_at;
update bookings b set business_client_id = c.id
from business_clients c where c.business_id = b.business_id and c.user_id = b.user_id and b.business_client_id is null;
