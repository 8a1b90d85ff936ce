-- Every notification a gateway posts, kept before it is answered (PayFast is answered 200 at once
-- and checked after), and what became of it. Money that arrives is never only in a log line:
--   RECEIVED    kept, not checked yet (or the check failed: `error`), listed once it is stale;
--   DONE        nothing left to do (applied, a replay, not a payment, or not signed by the gateway);
--   PROBLEM     signed and claiming a payment, but refused before the gateway confirmed it (source,
--               merchant, the confirmation call): the operator looks it up at the gateway;
--   REFUND_DUE  money the gateway confirmed that no booking takes (a second charge, an unknown
--               payment, a different amount): the operator returns it, then REFUNDED;
--   RESOLVED    a PROBLEM (or a stale RECEIVED) the operator has dealt with.
create table payment_notices (
  id text primary key,
  gateway text not null,
  source_ip text not null,
  body text not null,
  received_at timestamptz not null,
  state text not null default 'RECEIVED'
    check (state in ('RECEIVED', 'DONE', 'PROBLEM', 'REFUND_DUE', 'REFUNDED', 'RESOLVED')),
  outcome text,
  payment_id text,
  gateway_ref text,
  amount_cents integer,
  error text,
  checked_at timestamptz,
  note text,
  closed_at timestamptz
);
create index payment_notices_open on payment_notices (received_at) where state in ('RECEIVED', 'PROBLEM', 'REFUND_DUE');
-- One refund owed per gateway reference, however often the notification comes.
create unique index payment_notices_refund on payment_notices (gateway, gateway_ref) where state in ('REFUND_DUE', 'REFUNDED');
