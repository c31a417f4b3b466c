// A real Hippograph for the tests: `hippograph keys create` then `hippograph serve` on a free
// port, with a data directory of its own, as a user starts one. HIPPOGRAPH_PYTHON names the
// Python that has Hippograph's dependencies (default: the repository's .venv, else python3).
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const REPO = resolve(import.meta.dirname, "../../..");
const VENV_PYTHON = join(REPO, ".venv/bin/python");
const PYTHON = process.env.HIPPOGRAPH_PYTHON ?? (existsSync(VENV_PYTHON) ? VENV_PYTHON : "python3");

function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

export async function startServer() {
  const dataDir = mkdtempSync(join(tmpdir(), "hippograph-ts-"));
  const env = {
    ...process.env,
    PYTHONPATH: join(REPO, "src"),
    HIPPOGRAPH_DATA_DIR: join(dataDir, "store"),
    HIPPOGRAPH_HEAP: "512m",
    HIPPOGRAPH_CONSOLIDATION_INTERVAL_S: "0",
    HIPPOGRAPH_KEY_REFRESH_S: "0.5",
  };
  const hippograph = (...args) => [PYTHON, ["-m", "hippograph.cli", ...args]];
  const [python, keyArgs] = hippograph("keys", "create", "--name", "ts-admin", "--role", "admin", "--all-namespaces");
  const key = execFileSync(python, keyArgs, { env, encoding: "utf-8" }).trim().split("\n").at(-1);
  const port = await freePort();
  const [, serveArgs] = hippograph("serve", "--port", String(port));
  const server = spawn(python, serveArgs, { env, stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  server.stderr.on("data", (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited:\n${log}`);
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${log}`);
    const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ready) break;
    await new Promise((done) => setTimeout(done, 250));
  }
  return {
    url,
    key,
    async stop() {
      const exited = new Promise((done) => server.once("exit", done));
      server.kill("SIGTERM");
      await Promise.race([exited, new Promise((done) => setTimeout(done, 30_000))]);
      if (server.exitCode === null) server.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
