-- The sign-up steps after the details: when an application was sent for review (submitBusinessForReview).
alter table business_applications add column submitted_at timestamptz;
