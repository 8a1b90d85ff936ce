-- Claiming due mail walks the unsent mail in the order it was queued (claimDueMail: `order by seq
-- limit 8`): with this index a claim reads the oldest unsent rows and stops, instead of scanning
-- and sorting every unsent mail (300 ms a claim with 17,000 waiting: the bench of issue 30).
create index mail_outbox_claim_order on mail_outbox (seq) where sent_at is null and failed_at is null;
