-- The directory of pet businesses anyone can search (findPetBusinesses). A listing may be a
-- business on the service (business_id set: a partner, bookable with our tools) or only listed.
create table directory_listings (
  id text primary key,
  name text not null check (length(name) between 1 and 200),
  categories text[] not null check (cardinality(categories) between 1 and 5),
  area text,
  town text not null check (town ~ '^[a-z0-9-]{2,40}$'),
  services text[] not null default '{}',
  website text,
  phone text,
  email text,
  business_id text references businesses(id) on delete set null,
  fictional boolean not null default false,
  -- What a search looks in: name, services and area, lower case (kept by the writer).
  search_text text not null,
  created_at timestamptz not null default now()
);
create index directory_listings_town on directory_listings (town, name);
create index directory_listings_search on directory_listings using gin (search_text gin_trgm_ops);
