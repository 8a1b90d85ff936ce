-- Bookings the business must move (issue 16): new working hours or time off left them outside the
-- time their van, walker or sitter works. Nothing is dropped: the booking stays as it is, flagged
-- on the business's day plan and bookings list until it is moved, cancelled or the hours cover it
-- again. A flag holds for the booking's start and resource as they were when flagged: a moved
-- booking is no longer flagged. One flag per booking and cause ('hours', or the time off's id);
-- removing the time off removes its flags.
create table booking_move_flags (
  booking_id text not null references bookings(id) on delete cascade,
  cause text not null,
  business_id text not null references businesses(id) on delete cascade,
  time_off_id text references time_off(id) on delete cascade,
  reason text not null check (char_length(reason) between 1 and 500),
  resource_id text not null,
  starts_at timestamptz not null,
  flagged_at timestamptz not null,
  primary key (booking_id, cause),
  check ((cause = 'hours') = (time_off_id is null))
);
create index booking_move_flags_business on booking_move_flags (business_id, resource_id);
