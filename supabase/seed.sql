-- Demo data for Mediateca (filled in by the schema work).
select 1;
