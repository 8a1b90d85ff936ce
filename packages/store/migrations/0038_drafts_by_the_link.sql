-- Drafts by the link, and one limit on link mails per address (issue 27, items 3 and 4).
--
-- A no-login sign-up draft given an email no longer makes or touches an account: it keeps what was
-- sent (`data`) until someone follows a sign-in link to that email mailed from the draft's page.
-- The link remembers the draft it was mailed for; following it attaches the draft to the account
-- the link signs in to, in the same transaction.
alter table email_links add column draft_id text references signup_drafts(id) on delete set null;

-- Every mail a stranger can have sent to an address (sign-up, sign-in and draft links, staff
-- invitations) takes one row here, whether or not a mail went out (a sign-in link for an address
-- without an account sends none, and must be counted the same so the limit tells nothing).
-- Counted per lowercased address over the last hour; the worker removes rows older than a day.
create table link_mail_requests (
  email text not null,
  requested_at timestamptz not null
);
create index link_mail_requests_by_email on link_mail_requests (email, requested_at);

-- Accounts an earlier draft made and nobody ever signed in to were named as the stranger said
-- (`contactName`): a draft never names a person, so those names go.
update users set name = ''
where not email_verified and password_hash is null
  and id in (select user_id from signup_drafts where user_created and user_id is not null);
