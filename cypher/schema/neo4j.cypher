// Hippograph schema for Neo4j 5. Idempotent: every statement is IF NOT EXISTS.
// The embedded ArcadeDB engine builds the same schema from arcadedb.sql beside this file.

CREATE CONSTRAINT episode_id IF NOT EXISTS FOR (n:Episode) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT episode_dedup IF NOT EXISTS FOR (n:Episode) REQUIRE (n.namespace, n.content_hash) IS UNIQUE;
CREATE CONSTRAINT fact_id IF NOT EXISTS FOR (n:Fact) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT session_id IF NOT EXISTS FOR (n:Session) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT session_key IF NOT EXISTS FOR (n:Session) REQUIRE (n.namespace, n.external_id) IS UNIQUE;
CREATE CONSTRAINT history_id IF NOT EXISTS FOR (n:History) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT migration_id IF NOT EXISTS FOR (n:Migration) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT embedding_model_id IF NOT EXISTS FOR (n:EmbeddingModel) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT namespace_name IF NOT EXISTS FOR (n:Namespace) REQUIRE n.name IS UNIQUE;
CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (n:ApiKey) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT api_key_name IF NOT EXISTS FOR (n:ApiKey) REQUIRE n.name IS UNIQUE;
CREATE CONSTRAINT secret_id IF NOT EXISTS FOR (n:Secret) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT change_stream_name IF NOT EXISTS FOR (n:ChangeStream) REQUIRE n.name IS UNIQUE;
CREATE CONSTRAINT rate_budget_key IF NOT EXISTS FOR (n:RateBudget) REQUIRE n.key IS UNIQUE;
CREATE CONSTRAINT auth_failures_subject IF NOT EXISTS FOR (n:AuthFailures) REQUIRE n.subject IS UNIQUE;
CREATE CONSTRAINT change_stream_seq IF NOT EXISTS FOR (n:Change) REQUIRE (n.stream, n.seq) IS UNIQUE;
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT entity_key IF NOT EXISTS FOR (n:Entity) REQUIRE (n.namespace, n.type, n.canonical) IS UNIQUE;
CREATE CONSTRAINT concept_id IF NOT EXISTS FOR (n:Concept) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT concept_key IF NOT EXISTS FOR (n:Concept) REQUIRE (n.namespace, n.key) IS UNIQUE;
CREATE CONSTRAINT alias_id IF NOT EXISTS FOR (n:Alias) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT alias_key IF NOT EXISTS FOR (n:Alias) REQUIRE (n.namespace, n.key) IS UNIQUE;

CREATE INDEX episode_namespace IF NOT EXISTS FOR (n:Episode) ON (n.namespace);
CREATE INDEX episode_state IF NOT EXISTS FOR (n:Episode) ON (n.state);
CREATE INDEX episode_occurred_at IF NOT EXISTS FOR (n:Episode) ON (n.occurred_at);
CREATE INDEX episode_embedding_pending IF NOT EXISTS FOR (n:Episode) ON (n.embedding_pending);
CREATE INDEX fact_namespace IF NOT EXISTS FOR (n:Fact) ON (n.namespace);
CREATE INDEX fact_kind IF NOT EXISTS FOR (n:Fact) ON (n.kind);
CREATE INDEX fact_key IF NOT EXISTS FOR (n:Fact) ON (n.key);
CREATE INDEX fact_subject IF NOT EXISTS FOR (n:Fact) ON (n.subject);
CREATE INDEX fact_content_hash IF NOT EXISTS FOR (n:Fact) ON (n.namespace, n.content_hash);
CREATE INDEX fact_predicate IF NOT EXISTS FOR (n:Fact) ON (n.namespace, n.predicate);
CREATE INDEX fact_promoted_from IF NOT EXISTS FOR (n:Fact) ON (n.promoted_from_namespace);
CREATE INDEX entity_namespace IF NOT EXISTS FOR (n:Entity) ON (n.namespace);
CREATE INDEX entity_canonical IF NOT EXISTS FOR (n:Entity) ON (n.namespace, n.canonical);
CREATE INDEX session_namespace IF NOT EXISTS FOR (n:Session) ON (n.namespace);
CREATE INDEX history_target IF NOT EXISTS FOR (n:History) ON (n.target);
CREATE INDEX change_at IF NOT EXISTS FOR (n:Change) ON (n.at);

// The text indexes cover each memory's namespace token too, so that a search stays inside its
// namespace (store/search.py); stores from before that have the text-only indexes, dropped here.
DROP INDEX episode_content IF EXISTS;
DROP INDEX fact_statement IF EXISTS;
DROP INDEX entity_name IF EXISTS;
// An episode's text is searched by its stems only (store/search.py): the index over its words as
// written was most of a long capture's write on the embedded store (docs/benchmarks.md); older stores: dropped.
DROP INDEX episode_search IF EXISTS;
CREATE FULLTEXT INDEX episode_stems IF NOT EXISTS FOR (n:Episode) ON EACH [n.stems, n.namespace_token];
CREATE FULLTEXT INDEX episode_hints IF NOT EXISTS FOR (n:Episode) ON EACH [n.hints, n.namespace_token];
CREATE FULLTEXT INDEX fact_search IF NOT EXISTS FOR (n:Fact) ON EACH [n.statement, n.namespace_token];
CREATE FULLTEXT INDEX entity_search IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.namespace_token];

// Unquantized: the index scores exactly what the vector channel's exact path computes (Neo4j 5.26
// quantizes by default, moving a score by about 1e-3 and with it the order of near ties).
CREATE VECTOR INDEX episode_embedding IF NOT EXISTS FOR (n:Episode) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}};
CREATE VECTOR INDEX episode_context_embedding IF NOT EXISTS FOR (n:Episode) ON n.context_embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}};
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (n:Fact) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}};
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}};

// Index population is asynchronous in Neo4j; the first capture must not race it.
CALL db.awaitIndexes(300);

// Skills, their bad patterns and work items: procedures kept as data, never executed.
CREATE CONSTRAINT skill_id IF NOT EXISTS FOR (n:Skill) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT skill_version IF NOT EXISTS FOR (n:Skill) REQUIRE (n.namespace, n.name, n.version) IS UNIQUE;
CREATE CONSTRAINT bad_pattern_id IF NOT EXISTS FOR (n:BadPattern) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT work_item_id IF NOT EXISTS FOR (n:WorkItem) REQUIRE n.id IS UNIQUE;
CREATE INDEX skill_namespace IF NOT EXISTS FOR (n:Skill) ON (n.namespace);
CREATE INDEX work_item_namespace IF NOT EXISTS FOR (n:WorkItem) ON (n.namespace);

// Summaries of sessions, kept and brought up to date as sessions grow (summaries/).
CREATE CONSTRAINT summary_id IF NOT EXISTS FOR (n:Summary) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT summary_key IF NOT EXISTS FOR (n:Summary) REQUIRE (n.namespace, n.scope, n.key) IS UNIQUE;
