-- Running a business (issue 15): what a client note is about, so that a day plan or an assistant can
-- pick out the access codes, the vet or the temperament among a client's notes. Notes written before
-- this (and the demo partner's) are OTHER.
alter table client_notes add column kind text not null default 'OTHER'
  check (kind in ('TEMPERAMENT', 'HEALTH', 'ACCESS', 'VET', 'PREFERENCE', 'OTHER'));
