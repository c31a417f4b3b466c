// Offline lint of Neo4j Cypher files with Neo4j's own language support.
// Usage: node tools/cypher-lint/lint.mjs <dir-or-files...>
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  isNotParamError,
  lintCypherQuery,
  parseStatementsStrs,
  testData,
} from '@neo4j-cypher/language-support';

// LSP DiagnosticSeverity: a lower number is more severe. Diagnostics at
// FAIL_AT or worse fail the run; milder ones (deprecations) are only shown.
const SEVERITY_NAMES = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };
const FAIL_AT = 1;

// Built-in procedures and functions, with signatures, come from the package's
// exported mock schema: a SHOW PROCEDURES / SHOW FUNCTIONS dump of a recent
// Neo4j server, per Cypher version. That server had the APOC and GDS plugins;
// ours has neither, so calls into them must be reported as unknown.
const PLUGIN_NAMESPACES = ['apoc.', 'gds.'];

function withoutPlugins(registries) {
  return Object.fromEntries(
    Object.entries(registries).map(([version, registry]) => [
      version,
      Object.fromEntries(
        Object.entries(registry).filter(
          ([name]) => !PLUGIN_NAMESPACES.some((ns) => name.startsWith(ns)),
        ),
      ),
    ]),
  );
}

// Labels, relationship types and property keys are left out on purpose: the
// linter only warns about unknown ones, and it would warn about every label a
// query creates. Statements without a CYPHER prefix are read as Cypher 5.
const dbSchema = {
  procedures: withoutPlugins(testData.mockSchema.procedures),
  functions: withoutPlugins(testData.mockSchema.functions),
  defaultLanguage: 'CYPHER 5',
};

// Other query files (e.g. *.sql for ArcadeDB) are a different dialect.
function cypherFiles(path) {
  if (!statSync(path).isDirectory()) return path.endsWith('.cypher') ? [path] : [];
  return readdirSync(path)
    .filter((name) => !name.startsWith('.') && name !== 'node_modules')
    .sort()
    .flatMap((name) => cypherFiles(join(path, name)));
}

const paths = process.argv.slice(2);
if (paths.length === 0) {
  console.error('usage: node lint.mjs <dir-or-files...>');
  process.exit(2);
}
// A mistyped path must not pass as "0 files, 0 errors".
const missing = paths.filter((path) => !existsSync(path));
if (missing.length > 0) {
  console.error(`no such file or directory: ${missing.join(', ')}`);
  process.exit(2);
}

const files = paths.flatMap(cypherFiles);
let statements = 0;
let failures = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  statements += parseStatementsStrs(text).length;
  // Parameters are bound by the application at run time, not declared here;
  // cypher-shell commands such as :param are not something the driver can run.
  const diagnostics = lintCypherQuery(text, dbSchema, {
    consoleCommandsEnabled: false,
  }).diagnostics.filter(isNotParamError);
  for (const { severity, range, message } of diagnostics) {
    if (severity <= FAIL_AT) failures++;
    const { line, character } = range.start;
    const oneLine = message.trim().replace(/\s*\n\s*/g, ' ');
    console.log(
      `${file}:${line + 1}:${character + 1}: ${SEVERITY_NAMES[severity]}: ${oneLine}`,
    );
  }
}
console.log(`${files.length} files, ${statements} statements, ${failures} errors`);
process.exit(failures > 0 ? 1 : 0);
