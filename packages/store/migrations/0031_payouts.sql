-- Payouts (issue 16): the card money the operator collected for a business through its gateway,
-- paid out to the business less the card fees and the refunds, made with `pnpm cli payout create`
-- and marked paid with `pnpm cli payout paid`. A payout lists what it is made of (payout_items): a
-- settled payment (CARD, its fee beside it) or a refunded booking (REFUND). A payment or a refund is
-- in one payout at most, which the unique indexes below hold, so no money is paid out twice.
create table payouts (
  id text primary key,
  business_id text not null references businesses(id) on delete cascade,
  currency char(3) not null,
  -- The money settled up to this local date (inclusive, in the business's zone) that was in no payout yet.
  through_date date not null,
  -- The first and last local dates of the payments in it (null when it holds refunds alone).
  first_paid_date date,
  last_paid_date date,
  card_cents integer not null check (card_cents >= 0),
  fee_cents integer not null check (fee_cents >= 0),
  refund_cents integer not null check (refund_cents >= 0),
  amount_cents integer not null check (amount_cents > 0 and amount_cents = card_cents - fee_cents - refund_cents),
  status text not null default 'CREATED' check (status in ('CREATED', 'PAID')),
  -- The operator's reference of the transfer (bank reference), given when it is marked paid.
  note text,
  created_at timestamptz not null,
  created_by text not null,
  paid_at timestamptz,
  paid_by text,
  check ((status = 'PAID') = (paid_at is not null))
);
create index payouts_business on payouts (business_id, created_at desc, id desc);

create table payout_items (
  payout_id text not null references payouts(id) on delete cascade,
  business_id text not null references businesses(id) on delete cascade,
  kind text not null check (kind in ('CARD', 'REFUND')),
  -- CARD: the settled payment (PAID); REFUND: the payment that had paid the refunded booking.
  payment_id text not null references payments(id),
  -- REFUND: the booking whose money went back to the client.
  booking_id text references bookings(id),
  -- CARD: the money the business keeps of the payment (less any part owed back as paid twice);
  -- REFUND: the booking's total less its card fee (the operator returns the fee from its own).
  amount_cents integer not null check (amount_cents >= 0),
  -- CARD: the card fees in it (the operator's); REFUND: 0.
  fee_cents integer not null default 0 check (fee_cents >= 0),
  check ((kind = 'CARD') = (booking_id is null))
);
create unique index payout_items_card on payout_items (payment_id) where kind = 'CARD';
create unique index payout_items_refund on payout_items (booking_id) where kind = 'REFUND';
create index payout_items_payout on payout_items (payout_id);

-- Settled payments of a business by when they were paid (earnings, payouts).
create index payments_business_paid on payments (business_id, paid_at) where status = 'PAID';
