-- The operator follows leads up: when a lead was last asked about, and the note it was closed with.
alter table leads add column last_asked_at timestamptz;
alter table leads add column note text;
alter table leads add column closed_at timestamptz;
update leads set last_asked_at = created_at where last_asked_at is null;
create index leads_open on leads (business_id, created_at) where status <> 'CLOSED';
