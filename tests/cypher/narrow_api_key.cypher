// A key whose namespaces were changed in place: the product only creates and revokes keys, but a
// store edited by hand, or a later version that edits keys, must not leave old grants open.
MATCH (k:ApiKey {name: $key_name})
SET k.namespaces = $namespaces, k.all_namespaces = false
