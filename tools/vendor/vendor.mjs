// Copies the prebuilt browser bundles Hippograph serves out of node_modules (installed by `npm ci`
// from package-lock.json) into src/hippograph/api/static/vendor/<package>-<version>/, each with its
// licence. GraphiQL's bundle also carries its dependencies' code, so their licences go beside it in
// THIRD_PARTY_LICENSES. Run it through `make vendor`; the result is committed.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const modules = join(here, "node_modules");
const target = join(here, "..", "..", "src", "hippograph", "api", "static", "vendor");

// The files each page loads; nothing else of a package is served.
const BUNDLES = {
  react: ["umd/react.production.min.js"],
  "react-dom": ["umd/react-dom.production.min.js"],
  graphiql: ["graphiql.min.js", "graphiql.min.css"],
  cytoscape: ["dist/cytoscape.min.js"],
};
// Packages whose dependencies are compiled into the bundle we serve.
const BUNDLES_ITS_DEPENDENCIES = new Set(["graphiql"]);

const lock = JSON.parse(readFileSync(join(here, "package-lock.json"), "utf8")).packages;

function manifest(location) {
  return JSON.parse(readFileSync(join(here, location, "package.json"), "utf8"));
}

function licenceFiles(location) {
  return readdirSync(join(here, location)).filter((name) => /^(licen[cs]e|copying|notice)(\.(md|txt))?$/i.test(name)).sort();
}

// Node's resolution: the nearest node_modules/<name> from `from` upwards.
function resolve(from, name) {
  for (let base = from; ; base = base.slice(0, base.lastIndexOf("/node_modules/"))) {
    const candidate = `${base}/node_modules/${name}`;
    if (lock[candidate]) return candidate;
    if (!base.includes("/node_modules/")) return lock[`node_modules/${name}`] ? `node_modules/${name}` : null;
  }
}

function dependencyClosure(root) {
  const seen = new Set();
  const pending = [root];
  while (pending.length) {
    const location = pending.pop();
    const entry = lock[location];
    const names = Object.keys({ ...entry.dependencies, ...entry.peerDependencies });
    for (const name of names) {
      const found = resolve(location, name);
      if (found && !seen.has(found) && found !== root) {
        seen.add(found);
        pending.push(found);
      }
    }
  }
  // React and react-dom are served on their own, not compiled in.
  return [...seen].filter((location) => !/node_modules\/(react|react-dom|scheduler|loose-envify|js-tokens)$/.test(location)).sort();
}

function thirdPartyLicences(root) {
  const sections = [];
  for (const location of dependencyClosure(root)) {
    const { name, version, license } = manifest(location);
    const texts = licenceFiles(location).map((file) => readFileSync(join(here, location, file), "utf8").trim());
    sections.push(`${name}@${version} (${license ?? "see below"})\n\n${texts.join("\n\n") || `License: ${license}`}`);
  }
  const preface =
    `The licences of the packages ${manifest(root).name}'s bundle may contain: its dependencies as npm resolves them ` +
    `in tools/vendor/package-lock.json (the bundle was built by its authors with the versions of their lockfile).`;
  return `${preface}\n\n${sections.join(`\n\n${"-".repeat(72)}\n\n`)}\n`;
}

rmSync(target, { recursive: true, force: true });
for (const [name, files] of Object.entries(BUNDLES)) {
  const location = `node_modules/${name}`;
  const { version } = manifest(location);
  const destination = join(target, `${name}-${version}`);
  mkdirSync(destination, { recursive: true });
  for (const file of [...files, ...licenceFiles(location)]) {
    const source = join(modules, name, file);
    if (!existsSync(source)) throw new Error(`${name}@${version} has no ${file}`);
    cpSync(source, join(destination, file.split("/").pop()));
  }
  if (BUNDLES_ITS_DEPENDENCIES.has(name)) {
    writeFileSync(join(destination, "THIRD_PARTY_LICENSES"), thirdPartyLicences(location));
  }
  console.log(`vendored ${name}@${version}`);
}
