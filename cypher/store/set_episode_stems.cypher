// The stems of episodes' content (kernel/text/stems.py), for the keyword channel.
UNWIND $rows AS row
MATCH (e:Episode {id: row.id})
SET e.stems = row.stems
