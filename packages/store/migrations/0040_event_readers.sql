-- Readers of the domain events (mails, webhooks): each keeps a bookmark of how far it has read.
-- A bookmark on `seq` alone would skip events: sequence numbers are taken when a row is written,
-- but transactions commit in another order, so an event with a smaller seq can appear after a
-- larger one was read. Each event therefore carries the id of the transaction that wrote it, and a
-- reader only reads events of transactions older than every transaction still running
-- (pg_snapshot_xmin): those are final, committed or gone. Read in (tx, seq) order, nothing that
-- appears later can sort before the bookmark (docs/decisions.md, "Reading the events").
alter table domain_events add column tx xid8 not null default pg_current_xact_id();
create index domain_events_reading on domain_events (tx, seq);

create table event_readers (
  name text primary key,
  after_tx xid8 not null,
  after_seq bigint not null,
  read_at timestamptz
);
