-- Staff by consent (issue 27): an invitation is mailed and waits for the invited person to accept
-- or decline it; it is never taken up by itself. It expires (14 days after it was last sent), can be
-- declined, and remembers when it was last mailed.
alter table business_invitations
  add column expires_at timestamptz,
  add column declined_at timestamptz,
  add column sent_at timestamptz;
update business_invitations set expires_at = greatest(created_at, now()) + interval '14 days' where expires_at is null;
alter table business_invitations alter column expires_at set not null;
