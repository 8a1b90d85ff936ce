-- The reminders written (a `booking.reminder_due` event each): one per booking and start, so a
-- booking moved to another day is reminded again for its new time, and two workers never both
-- remind it (the insert is the claim).
create table booking_reminders (
  booking_id text not null references bookings (id) on delete cascade,
  starts_at timestamptz not null,
  reminded_at timestamptz not null,
  primary key (booking_id, starts_at)
);
