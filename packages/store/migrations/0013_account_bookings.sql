-- The account page lists a person's earlier bookings (ended, cancelled, lapsed), latest first.
create index bookings_user_start on bookings (user_id, starts_at desc);
