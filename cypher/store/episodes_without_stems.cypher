// Episodes stored before the keyword channel searched stems (kernel/text/stems.py): they get their
// stems at start-up, once per store. Empty once every episode has them.
MATCH (e:Episode)
WHERE e.stems IS NULL
RETURN e.id AS id, e.content AS content
