-- One lead per caller, place and day: asking again about the same unserved place counts the ask on
-- the lead already made (docs/decisions.md). Leads made before this keep no key and stay as they are.
alter table leads add column caller text;
alter table leads add column place_key text;
alter table leads add column day date;
alter table leads add column asks integer not null default 1 check (asks >= 1);
create unique index leads_one_per_caller_place_day on leads (business_id, caller, place_key, day)
  where place_key is not null;
