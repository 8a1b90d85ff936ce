-- Unpaid links whose person was told they are about to lapse (a `booking.payment_due` or
-- `order.payment_due` event each): one per booking or order and deadline, so a fresh link with a
-- later deadline is told again, and two workers never both tell it (the insert is the claim).
create table pay_reminders (
  subject_id text not null,
  pay_until timestamptz not null,
  reminded_at timestamptz not null,
  primary key (subject_id, pay_until)
);
