-- The shop (issue 17): the operator's pet products, sold in ZAR and sent by courier, by our own van
-- (postal codes of the home territory) or with the person's next booking. Only the operator sells;
-- the tables still name their business so the rows follow the business they belong to.

-- Whether the shop is open and how it delivers (DeliveryOptions: courier fees by province, local
-- fees by postal code, the visit option; each with its label and days).
create table shop_settings (
  business_id text primary key references businesses(id) on delete cascade,
  open boolean not null default false,
  delivery jsonb not null,
  changed_at timestamptz,
  changed_by text references users(id) on delete set null
);

create table products (
  id text primary key,
  business_id text not null references businesses(id) on delete cascade,
  name text not null check (char_length(name) between 1 and 120),
  blurb text not null,
  category text not null check (category in ('FOOD', 'TOYS', 'BEDS', 'ACCESSORIES', 'CARE')),
  pet_types text[] not null check (cardinality(pet_types) between 1 and 2 and pet_types <@ array['DOG', 'CAT']),
  tags text[] not null default '{}',
  -- What a search looks in: lower(name || ' ' || blurb || ' ' || tags), kept by the writer.
  search_text text not null,
  active boolean not null default true,
  sort_order int not null default 0
);
create index products_search on products using gin (search_text gin_trgm_ops);
create index products_business on products (business_id, sort_order, id) where active;

create table product_variants (
  id text primary key,
  product_id text not null references products(id) on delete cascade,
  label text not null,
  price_cents integer not null check (price_cents > 0),
  -- Never below zero: a purchase takes stock only where it is there (takeStock).
  stock integer not null check (stock >= 0),
  sort_order int not null default 0
);
create index product_variants_product on product_variants (product_id, sort_order, id);

create table discount_codes (
  business_id text not null references businesses(id) on delete cascade,
  -- Stored upper case; a code is looked up in any case.
  code text not null check (code = upper(code) and char_length(code) between 1 and 40),
  kind text not null check (kind in ('PERCENT', 'FIXED')),
  percent integer check (percent between 1 and 100),
  amount_cents integer check (amount_cents > 0),
  min_spend_cents integer not null default 0 check (min_spend_cents >= 0),
  starts_at timestamptz,
  ends_at timestamptz,
  max_uses integer check (max_uses >= 0),
  used integer not null default 0 check (used >= 0),
  description text not null,
  primary key (business_id, code),
  check ((kind = 'PERCENT') = (percent is not null)),
  check ((kind = 'FIXED') = (amount_cents is not null)),
  -- A code's last use is taken once: two buyers racing for it cannot both have it.
  check (max_uses is null or used <= max_uses),
  check (starts_at is null or ends_at is null or starts_at < ends_at)
);

create table orders (
  id text primary key,
  business_id text not null references businesses(id) on delete cascade,
  user_id text references users(id) on delete set null,
  status text not null check (status in ('PENDING_PAYMENT', 'CONFIRMED', 'PACKED', 'SHIPPED', 'DELIVERED', 'CANCELLED', 'EXPIRED')),
  payment_method text not null check (payment_method in ('CARD', 'CASH')),
  payment_status text not null check (payment_status in ('PENDING', 'PAID', 'CASH_DUE', 'REFUND_REQUESTED', 'REFUNDED', 'NONE')),
  shipping_method text not null check (shipping_method in ('courier', 'local', 'visit')),
  -- ShipTo (line1, suburb, city, province, postalCode, notes) for courier and local.
  ship_to jsonb,
  -- visit: the booking the order rides with.
  booking_id text references bookings(id) on delete set null,
  discount_code text,
  subtotal_cents integer not null check (subtotal_cents >= 0),
  discount_cents integer not null check (discount_cents >= 0),
  delivery_fee_cents integer not null check (delivery_fee_cents >= 0),
  total_cents integer not null check (total_cents >= 0),
  currency text not null,
  -- PENDING_PAYMENT only: when the unpaid order closes (EXPIRED) and its stock returns.
  expires_at timestamptz,
  tracking text,
  client_name text,
  created_at timestamptz not null,
  paid_at timestamptz,
  packed_at timestamptz,
  shipped_at timestamptz,
  delivered_at timestamptz,
  closed_at timestamptz,
  check (status <> 'PENDING_PAYMENT' or expires_at is not null),
  check (shipping_method = 'visit' or ship_to is not null)
);
-- A person's orders newest first, keyset on (created_at, id).
create index orders_user on orders (user_id, created_at desc, id desc);
create index orders_expiring on orders (expires_at) where status = 'PENDING_PAYMENT';
create index orders_to_pack on orders (business_id, created_at) where status in ('CONFIRMED', 'PACKED');

-- What was bought, as it was named and priced then (a product renamed later leaves the order as it was).
create table order_lines (
  order_id text not null references orders(id) on delete cascade,
  line_no integer not null,
  product_id text not null references products(id),
  variant_id text not null references product_variants(id),
  name text not null,
  variant_label text not null,
  qty integer not null check (qty between 1 and 99),
  unit_cents integer not null check (unit_cents > 0),
  line_cents integer not null check (line_cents = unit_cents * qty),
  primary key (order_id, line_no)
);

-- A card order's pay link is a payment with no bookings that names its order (as an invoice's does).
alter table payments add column order_id text references orders(id) on delete cascade;
create index payments_order on payments (order_id) where order_id is not null;
