"""A local Neo4j 5.26 Community for development and tests: `make neo4j-up` / `make neo4j-down`.

Maven resolves Neo4j, its Bolt and HTTP servers and Neo4j Browser from Maven Central into
tools/neo4j/target/lib (offline after the first run); this script runs Neo4j's own server entry
point from there as a JVM process of its own, on loopback. Neo4j is GPL-3: it is run beside
Hippograph, never bundled into its wheel.

Everything lives under one home directory (``.neo4j/`` by default): the configuration, the data,
the logs, a password generated on the first start, the pid, and ``env``, a sourceable file with
NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD and NEO4J_BROWSER_URL. Standard library only: it runs
before any virtualenv exists.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from browser_guide import NAME as GUIDE
from browser_guide import write_guide

HERE = Path(__file__).resolve().parent
LIB = HERE / "target" / "lib"
# The launcher's own classes (src/): the extension that serves the Browser guide.
OWN_JAR = HERE / "target" / "local-neo4j-1.jar"
SERVER_CLASS = "org.neo4j.server.CommunityEntryPoint"
ADMIN_CLASS = "org.neo4j.cli.AdminTool"
# A JVM on two busy cores can take minutes to open its store; a quiet machine takes about 20 s.
START_TIMEOUT_S = float(os.environ.get("NEO4J_START_TIMEOUT_S", "600"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["up", "down", "status", "guide"])
    parser.add_argument("--home", type=Path, default=Path(os.environ.get("NEO4J_HOME_DIR", ".neo4j")))
    parser.add_argument("--bolt-port", type=int, default=int(os.environ.get("NEO4J_BOLT_PORT", "0")))
    parser.add_argument("--http-port", type=int, default=int(os.environ.get("NEO4J_HTTP_PORT", "0")))
    parser.add_argument("--heap", default=os.environ.get("NEO4J_HEAP", "1g"))
    parser.add_argument("--pagecache", default=os.environ.get("NEO4J_PAGECACHE", "512m"))
    args = parser.parse_args()
    home = args.home.resolve()
    if args.action == "down":
        return down(home)
    if args.action == "status":
        pid = running_pid(home)
        print(f"running, pid {pid}" if pid else "not running")
        return 0 if pid else 1
    if args.action == "guide":  # served from the file on every request: no restart needed
        print(write_guide(home / "guides"))
        return 0
    return up(home, args.bolt_port, args.http_port, args.heap, args.pagecache)


def up(home: Path, bolt_port: int, http_port: int, heap: str, pagecache: str) -> int:
    if running_pid(home):
        print(f"Neo4j is already running: . {home / 'env'}")
        return 0
    build()
    for sub in ("conf", "data", "logs", "run", "import", "plugins"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    bolt_port = bolt_port or free_port()
    http_port = http_port or free_port()
    write_config(home, bolt_port, http_port, heap, pagecache)
    write_guide(home / "guides")
    password = initial_password(home)
    log = (home / "logs" / "console.log").open("ab")
    process = subprocess.Popen(
        [
            java(),
            f"-Xmx{heap}",
            f"-Dhippograph.guides={home / 'guides'}",
            "-cp",
            f"{LIB}/*:{OWN_JAR}",
            SERVER_CLASS,
            f"--home-dir={home}",
            f"--config-dir={home / 'conf'}",
        ],
        env=neo4j_env(home),
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,  # outlives `make`; `neo4j-down` stops it by its pid
    )
    (home / "neo4j.pid").write_text(f"{process.pid}\n")
    if not wait_until_ready(process, bolt_port, http_port, password):
        print(f"Neo4j did not start within {START_TIMEOUT_S:.0f} s; see {home / 'logs'}", file=sys.stderr)
        down(home)
        return 1
    env_file = home / "env"
    env_file.write_text(
        f"NEO4J_URI=bolt://127.0.0.1:{bolt_port}\n"
        "NEO4J_USER=neo4j\n"
        f"NEO4J_PASSWORD={password}\n"
        "NEO4J_DATABASE=neo4j\n"
        f"NEO4J_BROWSER_URL=http://127.0.0.1:{http_port}/browser/\n"
        # `. .neo4j/env && make test` hands them to make's children too.
        "export NEO4J_URI NEO4J_USER NEO4J_PASSWORD NEO4J_DATABASE NEO4J_BROWSER_URL\n"
    )
    env_file.chmod(0o600)
    print(f"Neo4j 5.26 Community on bolt://127.0.0.1:{bolt_port}, Browser at http://127.0.0.1:{http_port}/browser/")
    print(f"Its settings: . {env_file}")
    print(f"Hippograph's ready queries: Browser opens :guide {guide_url(http_port)} once connected")
    return 0


def down(home: Path) -> int:
    pid = running_pid(home)
    if pid is None:
        print("Neo4j is not running")
        return 0
    os.kill(pid, signal.SIGTERM)  # Neo4j's shutdown hook checkpoints and closes the store
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and alive(pid):
        time.sleep(0.2)
    if alive(pid):
        os.kill(pid, signal.SIGKILL)
    (home / "neo4j.pid").unlink(missing_ok=True)
    print("Neo4j stopped")
    return 0


def build() -> None:
    """Resolve the jars once; later runs find them and go offline (unless src/ changed)."""
    sources = [path.stat().st_mtime for path in (HERE / "src").rglob("*.java")]
    built = OWN_JAR.exists() and OWN_JAR.stat().st_mtime >= max(sources, default=0.0)
    if built and LIB.is_dir() and any(LIB.glob("neo4j-5.26.*.jar")):
        return
    subprocess.run(["mvn", "-q", "-B", "-f", str(HERE / "pom.xml"), "package"], check=True)


def write_config(home: Path, bolt_port: int, http_port: int, heap: str, pagecache: str) -> None:
    (home / "conf" / "neo4j.conf").write_text(
        "\n".join(
            [
                "server.default_listen_address=127.0.0.1",
                "server.default_advertised_address=127.0.0.1",
                f"server.bolt.listen_address=127.0.0.1:{bolt_port}",
                f"server.bolt.advertised_address=127.0.0.1:{bolt_port}",
                f"server.http.listen_address=127.0.0.1:{http_port}",
                f"server.http.advertised_address=127.0.0.1:{http_port}",
                "server.https.enabled=false",
                f"server.directories.data={home / 'data'}",
                f"server.directories.logs={home / 'logs'}",
                f"server.directories.run={home / 'run'}",
                f"server.directories.import={home / 'import'}",
                f"server.directories.plugins={home / 'plugins'}",
                f"server.memory.heap.initial_size={heap}",
                f"server.memory.heap.max_size={heap}",
                f"server.memory.pagecache.size={pagecache}",
                "dbms.security.auth_enabled=true",
                # No usage reports: this machine reaches no such host.
                "dbms.usage_report.enabled=false",
                # Neo4j Browser: Hippograph's guide (cypher/browser/) in its sidebar once connected,
                # served by the Guides extension (src/) from this origin, so it loads offline; the
                # guide holds no data, so it needs no login, as /browser/ does not. No telemetry.
                "server.unmanaged_extension_classes=dev.hippograph.neo4j=/hippograph",
                "dbms.security.http_auth_allowlist=/,/browser.*,/hippograph/guides/.*",
                "browser.remote_content_hostname_whitelist=127.0.0.1,localhost",
                f"browser.post_connect_cmd=guide {guide_url(http_port)}",
                "client.allow_telemetry=false",
                "",
            ]
        )
    )


def guide_url(http_port: int) -> str:
    return f"http://127.0.0.1:{http_port}/hippograph/guides/{GUIDE}"


def initial_password(home: Path) -> str:
    """The password of user neo4j, generated and set before the first start; kept for later starts."""
    saved = home / "password"
    if saved.exists():
        return saved.read_text().strip()
    # Hex: one token_urlsafe password in 64 starts with "-", which neo4j-admin reads as an option.
    password = secrets.token_hex(18)
    subprocess.run(
        [java(), "-cp", f"{LIB}/*", ADMIN_CLASS, "dbms", "set-initial-password", password],
        env=neo4j_env(home),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    saved.write_text(password + "\n")
    saved.chmod(0o600)
    return password


def wait_until_ready(process: subprocess.Popen[bytes], bolt_port: int, http_port: int, password: str) -> bool:
    """Bolt accepts connections and database neo4j answers a query (over HTTP: no driver here)."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        if port_open(bolt_port) and answers(http_port, password):
            return True
        time.sleep(0.5)
    return False


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def answers(http_port: int, password: str) -> bool:
    request = urllib.request.Request(
        f"http://127.0.0.1:{http_port}/db/neo4j/tx/commit",
        data=json.dumps({"statements": [{"statement": "RETURN 1"}]}).encode(),
        headers={
            "Content-Type": "application/json",
            "Authorization": "Basic " + base64.b64encode(f"neo4j:{password}".encode()).decode(),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return not json.load(response)["errors"]
    except (OSError, ValueError, KeyError):
        return False


def running_pid(home: Path) -> int | None:
    pidfile = home / "neo4j.pid"
    if not pidfile.exists():
        return None
    pid = int(pidfile.read_text().strip())
    return pid if alive(pid) else None


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is not alive; /proc says so where it exists.
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "\nState:\tZ" in status.read_text())


def neo4j_env(home: Path) -> dict[str, str]:
    return {**os.environ, "NEO4J_HOME": str(home), "NEO4J_CONF": str(home / "conf")}


def java() -> str:
    java_home = os.environ.get("JAVA_HOME")
    return str(Path(java_home) / "bin" / "java") if java_home else "java"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


if __name__ == "__main__":
    sys.exit(main())
