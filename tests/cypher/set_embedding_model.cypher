// A store whose vectors another embedding made ($model), or, with $model null, a store from before
// the record: the record is gone.
MATCH (m:EmbeddingModel {id: 'vectors'})
DELETE m
WITH count(*) AS removed
UNWIND CASE WHEN $model IS NULL THEN [] ELSE [$model] END AS name
CREATE (:EmbeddingModel {id: 'vectors', name: name, at: datetime()})
