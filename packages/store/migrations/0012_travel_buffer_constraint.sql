-- A booking blocks its resource for its time plus half the resource's travel buffer on either side,
-- so two live bookings of one resource closer together than the buffer overlap, and the exclusion
-- constraint refuses the second even when both arrive at once (the slot check made before the
-- transaction cannot see a booking not yet committed). The buffer is the resource's own, or for a
-- van without one 15 minutes: slot-engine's DEFAULT_VAN_BUFFER_MIN (a test holds the two together).
alter table bookings add column blocked tstzrange;

create function bookings_blocked() returns trigger language plpgsql as $$
declare
  half interval;
begin
  select make_interval(secs => coalesce(travel_buffer_min, case when kind = 'VAN' then 15 else 0 end) * 30)
    into half from resources where business_id = new.business_id and id = new.resource_id;
  new.blocked := tstzrange(new.starts_at - coalesce(half, interval '0'), new.ends_at + coalesce(half, interval '0'));
  return new;
end
$$;

create trigger bookings_blocked before insert or update of starts_at, ends_at, resource_id on bookings
  for each row execute function bookings_blocked();

update bookings b
  set blocked = tstzrange(
    b.starts_at - make_interval(secs => coalesce(r.travel_buffer_min, case when r.kind = 'VAN' then 15 else 0 end) * 30),
    b.ends_at + make_interval(secs => coalesce(r.travel_buffer_min, case when r.kind = 'VAN' then 15 else 0 end) * 30))
  from resources r where r.business_id = b.business_id and r.id = b.resource_id;
alter table bookings alter column blocked set not null;

alter table bookings drop constraint bookings_no_double_booking;
alter table bookings add constraint bookings_no_double_booking
  exclude using gist (business_id with =, resource_id with =, blocked with &&, (coalesce(share_key, id)) with <>)
  where (status in ('PENDING', 'ACCEPTED'));
