-- What a service area is, as the sign-up's area form and propose_service_area make it: a radius
-- around a point, a suburb (by its name, with its postal code when given) or a postal code alone.
-- A suburb's own name (without the " (7600)" its area's name carries) is its alias, so the
-- gazetteer finds it as people type it. Areas without a centre or radius are no longer left out of
-- a business's offer: a suburb covers the places of that name, a postal code the places of that code.
alter table service_areas add column kind text not null default 'RADIUS'
  check (kind in ('RADIUS', 'SUBURB', 'POSTAL_CODE'));

update service_areas set kind = case
    when radius_km is not null then 'RADIUS'
    when postal_code is not null and name = 'Postal code ' || postal_code then 'POSTAL_CODE'
    else 'SUBURB'
  end;

update service_areas
  set aliases = array[left(name, length(name) - length(postal_code) - 3)]
  where kind = 'SUBURB' and aliases = '{}' and postal_code is not null
    and right(name, length(postal_code) + 3) = ' (' || postal_code || ')';
update service_areas set aliases = array[name] where kind = 'SUBURB' and aliases = '{}';
