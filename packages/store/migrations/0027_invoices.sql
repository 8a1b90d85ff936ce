-- Invoice links (issue 15): any amount a business asks of a client, with a description, paid by
-- card through a pay link like a booking's. The link is a payment (payments.invoice_id) with no
-- bookings; a verified notification for it marks the invoice PAID.
create table invoices (
  id text primary key,
  business_id text not null references businesses(id) on delete cascade,
  client_id text,
  amount_cents integer not null check (amount_cents > 0),
  currency text not null,
  description text not null check (char_length(description) between 1 and 200),
  due_date date,
  status text not null default 'OPEN' check (status in ('OPEN', 'PAID')),
  expires_at timestamptz not null,
  created_by text references users(id) on delete set null,
  created_at timestamptz not null,
  paid_at timestamptz,
  foreign key (business_id, client_id) references business_clients(business_id, id)
);
create index invoices_business on invoices (business_id, created_at desc);

alter table payments add column invoice_id text references invoices(id) on delete cascade;
create index payments_invoice on payments (invoice_id) where invoice_id is not null;
