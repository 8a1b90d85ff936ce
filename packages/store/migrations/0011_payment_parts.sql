-- A payment row need not carry a pay link: the part of a confirmed payment owed back (a week of a
-- series paid twice) is a row of its own, and a link narrowed to the other weeks of a series moves
-- its token to the row that replaces it. `part_of` names the payment such a row was split from.
alter table payments alter column link_token_hash drop not null;
alter table payments add column part_of text references payments (id);
