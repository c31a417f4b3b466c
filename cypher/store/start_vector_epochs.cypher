// Every namespace of a store from before vectors were numbered takes an epoch, so that recall may
// keep its vectors (store/vector_cache.py); its memories count as numbered 0.
MATCH (n:Namespace)
WHERE n.vector_epoch IS NULL
SET n.vector_epoch = $epoch, n.vector_seq = coalesce(n.vector_seq, 0)
