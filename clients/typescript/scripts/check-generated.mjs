// Exit 1 when src/generated.ts is not what graphql-codegen makes of graphql/schema.graphql and
// graphql/client/ now (CI runs this): the file is left as it was; `npm run codegen` rewrites it.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const target = resolve(root, "src/generated.ts");
const committed = readFileSync(target, "utf-8");
try {
  execFileSync("npx", ["--no-install", "graphql-codegen", "--config", "codegen.yml", "--silent"], { cwd: root, stdio: "inherit" });
  const fresh = readFileSync(target, "utf-8");
  if (fresh !== committed) {
    console.error("src/generated.ts is stale: run `npm run codegen` in clients/typescript and commit it");
    process.exitCode = 1;
  } else {
    console.log("src/generated.ts matches the schema and the operations");
  }
} finally {
  writeFileSync(target, committed);
}
