// Vectors gone (store/vector_stamps.py): memories deleted, or imported with numbers from another
// store. The namespaces take a new epoch, which tells every process's copy of their vectors to
// read them again whole (store/vector_cache.py).
UNWIND $namespaces AS name
MATCH (n:Namespace {name: name})
SET n.vector_epoch = $epoch
