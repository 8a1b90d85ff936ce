-- A booking names the person's saved pets and address; removing one of them is refused while a live
-- booking names it. So the two cannot cross, the statement that writes a booking holds those rows
-- (FOR SHARE: a removal's FOR UPDATE waits for it) and fails with NPGON when one is gone.
create function bookings_hold_saved(p_user_id text, p_pet_ids text[], p_address_id text) returns boolean
language plpgsql as $$
begin
  if (select count(*) from (select 1 from pets where user_id = p_user_id and id = any(p_pet_ids) for share) held)
       <> cardinality(p_pet_ids)
     or (p_address_id is not null
         and not exists (select 1 from addresses where user_id = p_user_id and id = p_address_id for share)) then
    raise exception 'a saved pet or address of this booking was removed' using errcode = 'NPGON';
  end if;
  return true;
end $$;
