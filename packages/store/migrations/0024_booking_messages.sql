-- What a business told the client about a booking (issue 15): accepted, declined, moved or
-- cancelled by the business, in the words the client reads on get_booking, list_bookings and the
-- account page. No message leaves the service (outbound mail and SMS are not in the spec); this is
-- the record the client sees. The person who acted is kept by id and by name (as it was).
create table booking_messages (
  id text primary key,
  booking_id text not null references bookings(id) on delete cascade,
  business_id text not null references businesses(id) on delete cascade,
  kind text not null check (kind in ('ACCEPTED', 'DECLINED', 'MOVED', 'CANCELLED')),
  text text not null check (char_length(text) between 1 and 2000),
  reason text check (reason is null or char_length(reason) between 1 and 300),
  by_user_id text,
  by_name text not null,
  at timestamptz not null
);
create index booking_messages_booking on booking_messages (booking_id, at desc, id desc);
