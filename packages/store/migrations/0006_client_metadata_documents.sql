-- Client ID Metadata Documents: a client whose id is the URL of its metadata is fetched, not
-- registered. Its row is a cache of that document, refreshed once it goes stale.
alter table oauth_clients add column kind text not null default 'REGISTERED' check (kind in ('REGISTERED', 'METADATA_DOCUMENT'));
alter table oauth_clients add column stale_at timestamptz;
