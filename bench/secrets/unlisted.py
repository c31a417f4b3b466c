"""Seeded generator of secrets nobody listed: formats that neither ``bench/secrets/corpus.jsonl`` nor
``extract/credentials.toml`` names, plus innocent look-alikes, split into a development corpus and a
held-out corpus.

The catalogue below holds vendor tokens of many shapes (no prefix the rules know), prose in eleven
languages, assignments in env/YAML/JSON/TOML/INI/XML/PHP/SQL/code and short CLI flags, session
cookies and API-key headers, base64-wrapped config secrets (registry auths, Kubernetes Secret data,
kubeconfig ``*-data``), escaped wrappers, key files that are not PEM (PuTTY, OpenVPN, WireGuard,
minisign), crypto wallet keys and BIP39 seed phrases. Every format, every look-alike kind and every
surrounding template is assigned to one side by a hash of its name, so the held-out corpus holds
formats, phrasings and look-alikes that development never saw:

    python bench/secrets/unlisted.py                 # writes dev.jsonl and heldout.jsonl
    python bench/secrets/unlisted.py --seed 7 --per-format 10 --out-dir /tmp

The lines have the layout of ``corpus.jsonl`` (see ``generate.py``) and a ``kind`` naming the family
a format belongs to, so leaks can be reported by kind. Score the held-out file only at the end.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from mnemonic import Mnemonic

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import ALNUM, B64, B64URL, DIGITS, HEX, LOWER, UPPER, Part, Secret, rand, render, uuid4

SEED = 20261128
HERE = Path(__file__).resolve().parent
BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BASE32_LOWER = LOWER + "234567"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
SYMBOLS = "!#$%&*+-=?@^_~."


def side(name: str) -> str:
    """``dev`` for about a quarter of the names, ``heldout`` for the rest, fixed by the name alone."""
    return "dev" if hashlib.sha256(name.encode()).digest()[0] % 4 == 0 else "heldout"


@dataclass(frozen=True, slots=True)
class Format:
    name: str
    kind: str
    make: Callable[[random.Random, str], list[Part]]  # (rng, side) -> parts


def pick(rng: random.Random, templates: Sequence[str], where: str) -> str:
    """A template of this side (each template belongs to one side, by its text); all if none is."""
    mine = [t for t in templates if side(t) == where]
    return rng.choice(mine or list(templates))


# --- bodies ---------------------------------------------------------------------------------------


def password(rng: random.Random) -> str:
    kind = rng.randrange(5)
    if kind == 0:
        word = rng.choice(["Sommer", "soleil", "verano", "estate", "Zomer", "lato", "sakura", "Herbst", "luna", "mare"])
        return word + rand(rng, DIGITS, rng.randint(2, 4)) + rng.choice("!#?$%&*")
    if kind == 1:
        return rand(rng, ALNUM + SYMBOLS, rng.randint(10, 20))
    if kind == 2:
        return rand(rng, ALNUM, rng.randint(8, 12)) + rng.choice(DIGITS) + rng.choice("!@#%")
    if kind == 3:
        return rng.choice(["Tr0ub4dor", "C0rrect-Horse", "P@ssw0rd", "Qwerty!9", "Kennwort#1"]) + rand(rng, DIGITS, 2)
    return rand(rng, ALNUM, rng.randint(16, 24))


def machine(rng: random.Random) -> str:
    alphabet = rng.choice([ALNUM, B64URL, HEX + UPPER[:6]])
    value = rand(rng, alphabet, rng.randint(24, 44))
    return value if any(c.isdigit() for c in value) else value + "4"


def token(*pieces: str | tuple[str, int]) -> Callable[[random.Random], str]:
    def make(rng: random.Random) -> str:
        return "".join(p if isinstance(p, str) else rand(rng, p[0], p[1]) for p in pieces)

    return make


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def b64_lines(rng: random.Random, lines: int, width: int = 64) -> str:
    return "\n".join(rand(rng, B64, width) for _ in range(lines)) + "\n" + rand(rng, B64, rng.randint(8, 40)) + "="


# --- vendor tokens: prefixes and shapes the rules do not know -------------------------------------

VENDORS: list[tuple[str, Callable[[random.Random], str]]] = [
    ("netlify", token("nfp_", (ALNUM, 36))),
    ("render", token("rnd_", (ALNUM, 32))),
    ("flyio", token("fo1_", (B64URL, 43))),
    ("tailscale", token("tskey-auth-k", (ALNUM, 16), "-", (ALNUM, 33))),
    ("sourcegraph", token("sgp_", (HEX, 16), "_", (HEX, 40))),
    ("prefect", token("pnu_", (ALNUM, 36))),
    ("readme", token("rdme_", (LOWER + DIGITS, 70))),
    ("typeform", token("tfp_", (ALNUM, 44), "_", (ALNUM, 14))),
    ("contentful", token("CFPAT-", (B64URL, 43))),
    ("dropbox", token("sl.", (B64URL, 130))),
    ("dynatrace", token("dt0c01.", (UPPER + DIGITS, 24), ".", (UPPER + DIGITS, 64))),
    ("flutterwave", token("FLWSECK-", (HEX, 32), "-X")),
    ("frameio", token("fio-u-", (B64URL, 64))),
    ("scalingo", token("tk-us-", (B64URL, 48))),
    ("shippo", token("shippo_live_", (HEX, 40))),
    ("adafruit", token("aio_", (ALNUM, 28))),
    ("alibaba", token("LTAI", (ALNUM, 20))),
    ("clojars", token("CLOJARS_", (HEX, 60))),
    ("duffel", token("duffel_live_", (B64URL, 43))),
    ("easypost", token("EZAK", (HEX, 54))),
    ("infracost", token("ico-", (ALNUM, 32))),
    ("launchdarkly", token("api-", (HEX, 8), "-", (HEX, 4), "-", (HEX, 4), "-", (HEX, 4), "-", (HEX, 12))),
    ("octopus", token("API-", (UPPER + DIGITS, 26))),
    ("openshift", token("sha256~", (B64URL, 43))),
    ("scaleway", token("SCW", (UPPER + DIGITS, 17))),
    ("ubidots", token("BBFF-", (ALNUM, 30))),
    ("onepassword_sa", token("ops_eyJ", (B64URL, 180))),
    ("resend", token("re_", (ALNUM, 8), "_", (ALNUM, 24))),
    ("xai", token("xai-", (ALNUM, 80))),
    ("fireworks", token("fw_", (ALNUM, 24))),
    ("langsmith", token("lsv2_pt_", (HEX, 32), "_", (HEX, 10))),
    ("pinecone", token("pcsk_", (ALNUM, 5), "_", (ALNUM, 60))),
    ("elevenlabs", token("sk_", (HEX, 48))),
    ("neon", token("napi_", (LOWER + DIGITS, 64))),
    ("axiom", token("xaat-", (HEX, 8), "-", (HEX, 4), "-", (HEX, 4), "-", (HEX, 4), "-", (HEX, 12))),
    ("honeycomb", token("hcaik_", (LOWER + DIGITS, 58))),
    ("buildkite", token("bkua_", (HEX, 40))),
    ("circleci", token("CCIPAT_", (ALNUM, 22), "_", (HEX, 40))),
    ("sonarqube", token("squ_", (HEX, 40))),
    ("jfrog", token("AKCp", (ALNUM, 69))),
    ("mandrill", token("md-", (B64URL, 22))),
    ("pubnub_secret", token("sec-c-", (ALNUM, 48))),
    ("ably", token((ALNUM, 6), ".", (ALNUM, 6), ":", (B64URL, 43))),
    ("clickup", token("pk_", (DIGITS, 8), "_", (UPPER + DIGITS, 32))),
    ("sanity", token("sk", (ALNUM, 80))),
    ("ghost_admin", token((HEX, 24), ":", (HEX, 64))),
    ("mapbox_secret", token("sk.eyJ1Ijoi", (B64URL, 60), ".", (B64URL, 22))),
    ("twitter_bearer", token("AAAAAAAAAAAAAAAAAAAAA", (ALNUM, 20), "%3D", (ALNUM, 50))),
    ("facebook", token("EAAG", (ALNUM, 150))),
    ("instagram", token("IGQV", (B64URL, 160))),
    ("paypal_braintree", token("access_token$production$", (LOWER + DIGITS, 16), "$", (HEX, 32))),
    ("mollie", token("live_", (ALNUM, 30))),
    ("telnyx", token("KEY0", (HEX, 28), "_", (ALNUM, 22))),
    ("backblaze", token("K00", (DIGITS, 1), (ALNUM + "/+", 27))),
    ("azure_devops", token((BASE32_LOWER, 52))),
    ("cloudflare", token((ALNUM + "-_", 40))),
    ("gitea", token((HEX, 40))),
    ("linode", token((HEX, 64))),
    ("vultr", token((UPPER + DIGITS, 36))),
    ("hetzner", token((ALNUM, 64))),
    ("mistral", token((ALNUM, 32))),
    ("cohere", token((ALNUM, 40))),
    ("deepgram", token((HEX, 40))),
    ("assemblyai", token((HEX, 32))),
    ("openweather", token((HEX, 32))),
    ("trello", token("ATTA", (HEX, 64))),
    ("airtable", token("pat", (ALNUM, 14), ".", (HEX, 64))),
    ("asana", token("2/", (DIGITS, 16), "/", (DIGITS, 16), ":", (HEX, 32))),
    ("mailchimp", token((HEX, 32), "-us", (DIGITS, 2))),
    ("okta", token("00", (B64URL, 40))),
    ("yandex", token("AQVN", (B64URL, 36))),
    ("harness", token("pat.", (B64URL, 22), ".", (HEX, 24), ".", (ALNUM, 20))),
    ("wordpress_app_password", lambda r: " ".join(rand(r, ALNUM, 4) for _ in range(6))),
    ("google_app_password", lambda r: " ".join(rand(r, LOWER, 4) for _ in range(4))),
]

# Where a vendor token turns up: neutral contexts, "key: value" without "api", prose, logs.
VENDOR_PLACES = [
    "{}",
    "ran the sync with {} and it worked",
    "{vendor}: {}",
    "{vendor} = {}",
    "{VENDOR}={}",
    '"{vendor}": "{}"',
    "the {vendor} key is {}",
    "token for the {vendor} account is {} (prod)",
    "here's the {vendor} one: {}",
    "INFO 2026-11-27 12:01:07 client init {vendor} creds={} region=eu",
    "use `{}` for {vendor}",
    "<{vendor}>{}</{vendor}>",
    "{vendor}.credential={}\n",
    "new {vendor} token issued -> {}",
    "- {vendor}: {}\n- next",
    "our {vendor} access is {} until friday",
]


def vendor(name: str, make_token: Callable[[random.Random], str]) -> Format:
    def make(rng: random.Random, where: str) -> list[Part]:
        template = pick(rng, VENDOR_PLACES, where)
        # google/wordpress app passwords are spaced words of letters: without a name they are prose.
        if " " in make_token(random.Random(0)) and template in ("{}", "use `{}` for {vendor}"):
            template = "{vendor}: {}"
        before, after = template.replace("{vendor}", name).replace("{VENDOR}", name.upper() + "_VALUE").split("{}")
        return [before, Secret(make_token(rng), f"vendor_{name}"), after]

    return Format(f"vendor_{name}", "vendor_token", make)


# --- prose in many languages ----------------------------------------------------------------------

PROSE = {
    "en_clause": ["the password, which I changed yesterday, is {}", "the password for the NAS in the office is now {}"],
    "en_colleague": ["fyi the db password we set for staging was {} - rotate it", "Jane's password is {}, don't share"],
    "en_key_for": ["the key for the backup bucket is {}", "the signing key we use for releases: {}"],
    "de": ["Das Passwort ist {}", "Passwort für den Router lautet {}", "das Kennwort für den Server: {}"],
    "fr": ["le mot de passe est {}", "Mot de passe du wifi : {}", "mon mot de passe pour le NAS est {}"],
    "es": ["la contraseña es {}", "Contraseña del servidor: {}", "mi clave de acceso es {}"],
    "it": ["la password è {}", "la password del router è {}", "chiave di accesso: {}"],
    "pt": ["a senha é {}", "Senha do banco: {}", "minha senha do wifi é {}"],
    "nl": ["het wachtwoord is {}", "Wachtwoord van de server: {}", "mijn wachtwoord voor de NAS is {}"],
    "pl": ["hasło to {}", "Hasło do serwera: {}", "moje hasło do wifi to {}"],
    "ru": ["пароль: {}", "пароль от сервера {}", "мой пароль к базе — {}"],
    "ja": ["パスワードは {} です", "パスワード: {}", "サーバーのパスワードは{}"],
    "sv": ["lösenordet är {}", "Lösenord till routern: {}"],
    "tr": ["şifre: {}", "sunucu şifresi {}"],
    "de_token": ["der API-Schlüssel lautet {}", "Zugangsschlüssel: {}"],
    "fr_token": ["la clé API est {}", "le jeton d'accès est {}"],
    "es_token": ["el token de acceso es {}", "la clave API es {}"],
    "pin_de": ["die PIN ist {}", "PIN der Karte: {}"],
    "pin_fr": ["le code PIN est {}", "code d'accès : {}"],
}


def prose(name: str, templates: list[str]) -> Format:
    numeric = name.startswith("pin")

    def make(rng: random.Random, where: str) -> list[Part]:
        before, after = rng.choice(templates).split("{}")
        value = rand(rng, DIGITS, rng.randint(4, 8)) if numeric else rng.choice([password, machine])(rng)
        return [before, Secret(value, f"prose_{name}"), after]

    return Format(f"prose_{name}", "prose", make)


# --- assignments, config formats, command lines ----------------------------------------------------

ASSIGNMENTS: dict[str, list[str]] = {
    "env_pass": ["DB_PASS={}", "SMTP_PASS='{}'", 'export MQ_PASS="{}"'],
    "env_pw": ["ADMIN_PW={}", "export LDAP_PW={}", "RABBIT_PW='{}'"],
    "env_pwd": ["MYSQL_PWD={}", "export SA_PWD={}"],
    "env_secret_suffix": ["JWT_SIGNING_SECRET={}", "SESSION_SECRET={}", "COOKIE_SECRET={}"],
    "env_cred": ["SERVICE_CRED={}", "BACKUP_CREDENTIALS={}"],
    "yaml_pass": ["  admin_pass: {}\n", "smtp:\n  pass: {}\n", "  userPassword: {}\n"],
    "yaml_private": ["  privateKey: {}\n", "  signing_key: {}\n"],
    "json_nested": ['{"db": {"user": "app", "pwd": "{}"}}', '{"auth": {"clientSecret": "{}"}}'],
    "json_session": ['{"sessionToken": "{}", "expires": 3600}', '{"refreshToken":"{}"}'],
    "toml": ['[database]\npassword = "{}"\n', 'api_secret = "{}"\n', '[smtp]\npass = "{}"\n'],
    "ini": ["[mysql]\nuser = app\npasswd = {}\n", "[auth]\nsecret = {}\n", "Password={}\n"],
    "xml_element": ["<password>{}</password>", "<db><pass>{}</pass></db>", "<ApiKey>{}</ApiKey>"],
    "xml_attribute": ['<user name="svc" password="{}"/>', '<add key="ClientSecret" value="{}" />'],
    "php_define": ["define('DB_PASSWORD', '{}');", "define( 'AUTH_KEY', '{}' );", 'define("SECRET_KEY", "{}");'],
    "php_var": ["$db_pass = '{}';", "$cfg['Servers'][$i]['password'] = '{}';"],
    "code_python": ["conn = connect(host='db', passwd='{}')", 'client = Api(auth_token="{}")'],
    "code_js": ["const dbPassword = '{}';", 'let secretKey = "{}";', "apiKey: '{}',"],
    "code_go": ['password := "{}"', 'cfg.Secret = "{}"'],
    "code_java": ['private static final String PASSWORD = "{}";', 'props.setProperty("mail.smtp.password", "{}");'],
    "code_csharp": ['var connStr = "Server=db;Uid=sa;Pwd={};";', 'options.ClientSecret = "{}";'],
    "sql_identified": ["CREATE USER 'app'@'%' IDENTIFIED BY '{}';", 'ALTER USER app IDENTIFIED BY "{}";'],
    "sql_with_password": ["CREATE ROLE reporter WITH LOGIN PASSWORD '{}';", "ALTER ROLE app WITH PASSWORD '{}';"],
    "sql_login": ["ALTER LOGIN sa WITH PASSWORD = '{}';", "CREATE LOGIN svc WITH PASSWORD = N'{}'"],
    "cli_short_p": ["ftp-upload -u deploy -p {} files/", "mongo admin -u root -p {}", "ncftp -u me -p {} host"],
    "cli_upper_p": ["sqlcmd -S db -U sa -P {} -Q 'select 1'", "mosquitto_pub -h mq -u app -P {} -t x -m y"],
    "cli_w": ["ldapsearch -x -D cn=admin,dc=ex -w {} -b dc=ex", "ldapmodify -D cn=admin -w {} -f x.ldif"],
    "cli_pass_colon": ["openssl pkcs12 -in a.p12 -passin pass:{}", "openssl rsa -in k.pem -passout pass:{}"],
    "cli_storepass": ["keytool -list -keystore a.jks -storepass {}", "jarsigner -keypass {} app.jar mykey"],
    "cli_archive": ["zip -P {} backup.zip db.sql", "7z x secret.7z -p{}"],
    "cli_env_flag": [
        "docker run -e DB_PASSWORD={} postgres",
        "kubectl create secret generic db --from-literal=password={}",
    ],
    "cli_smb": ["smbclient //nas/share -U admin%{}", "mount -t cifs //nas/s /mnt -o username=me,password={}"],
    "cli_htpasswd": ["htpasswd -b .htpasswd admin {}", "az login -u me@ex.com -p {}"],
    "header_api_key": ["X-API-Key: {}", "curl -H 'X-Api-Key: {}' https://api.example.com", "Api-Key: {}"],
    "header_private_token": ["PRIVATE-TOKEN: {}", "X-Auth-Key: {}", "X-Access-Token: {}"],
    "cookie": ["Cookie: session={}; theme=dark", "Set-Cookie: sid={}; HttpOnly; Secure", "PHPSESSID={}"],
    "cookie_js": ["document.cookie = 'auth={}'", "connect.sid={}", "JSESSIONID={}"],
    "query_param": ["https://api.example.com/v1/items?apikey={}&q=1", "GET /feed?access_token={}&page=2"],
    "wireguard": ["[Interface]\nAddress = 10.0.0.2/32\nPrivateKey = {}\n", "[Peer]\nPresharedKey = {}\n"],
}


def assignment(name: str, templates: list[str]) -> Format:
    def make(rng: random.Random, where: str) -> list[Part]:
        before, after = pick(rng, templates, where).split("{}")
        if name == "wireguard":
            value = base64.b64encode(rng.randbytes(32)).decode()
        elif name.startswith(("cookie", "json_session")):
            value = rand(rng, B64URL, rng.randint(24, 48))
        else:
            value = rng.choice([password, machine])(rng)
        return [before, Secret(value, f"assign_{name}"), after]

    return Format(f"assign_{name}", "assignment", make)


# --- secrets wrapped in base64, URL encoding or JSON escapes ----------------------------------------


def docker_auths(rng: random.Random, where: str) -> list[Part]:
    auth = b64(f"{rng.choice(['ci', 'robot$deploy', 'me'])}:{password(rng)}")
    host = rng.choice(["registry.example.com", "ghcr.io", "123456789012.dkr.ecr.eu-west-1.amazonaws.com"])
    return ['{"auths": {"' + host + '": {"auth": "', Secret(auth, "wrapped_docker_auth"), '"}}}']


def dockerconfigjson(rng: random.Random, where: str) -> list[Part]:
    inner = json.dumps({"auths": {"r.example.com": {"auth": b64("bot:" + password(rng))}}})
    return [
        "apiVersion: v1\nkind: Secret\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: ",
        Secret(b64(inner), "wrapped_dockerconfigjson"),
        "\n",
    ]


def k8s_secret(rng: random.Random, where: str) -> list[Part]:
    key, value = rng.choice(
        [
            ("DATABASE_URL", f"postgres://app:{password(rng)}@db:5432/app"),
            ("api-token", machine(rng)),
            ("credentials.json", json.dumps({"client_secret": machine(rng)})),
            ("config", f"password={password(rng)}\n"),
        ]
    )
    return [
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ndata:\n  " + key + ": ",
        Secret(b64(value), "wrapped_k8s_secret_data"),
        "\n",
    ]


def kubeconfig_key_data(rng: random.Random, where: str) -> list[Part]:
    pem = "-----BEGIN EC PRIVATE KEY-----\n" + b64_lines(rng, 2) + "\n-----END EC PRIVATE KEY-----\n"
    cert = b64("-----BEGIN CERTIFICATE-----\n" + b64_lines(rng, 3) + "\n-----END CERTIFICATE-----\n")
    return [
        f"users:\n- name: admin\n  user:\n    client-certificate-data: {cert}\n    client-key-data: ",
        Secret(b64(pem), "wrapped_kubeconfig_key_data"),
        "\n",
    ]


def base64_pipe(rng: random.Random, where: str) -> list[Part]:
    inner = rng.choice([f"admin:{password(rng)}", f"DB_PASSWORD={password(rng)}", f"token={machine(rng)}"])
    return ["echo ", Secret(b64(inner), "wrapped_base64_pipe"), " | base64 -d > .env"]


def url_encoded(rng: random.Random, where: str) -> list[Part]:
    inner = json.dumps({"user": "ops", "password": password(rng)})
    return ["POST /login body=", Secret(quote(inner, safe=""), "wrapped_url_encoded"), " status=302"]


def json_escaped(rng: random.Random, where: str) -> list[Part]:
    # A JSON document logged as a string inside another: its quotes arrive as \\".
    secret = password(rng)
    return [
        '{"level":"info","msg":"config loaded","raw":"{\\"db\\":{\\"password\\":\\"',
        Secret(secret, "wrapped_json_escaped"),
        '\\"}}"}',
    ]


# --- keys that are not PEM blocks, and crypto wallets -------------------------------------------------


def putty(rng: random.Random, where: str) -> list[Part]:
    version = rng.choice(["2", "3"])
    private = b64_lines(rng, rng.randint(6, 14))
    head = (
        f"PuTTY-User-Key-File-{version}: ssh-rsa\nEncryption: none\nComment: rsa-key-20261127\n"
        f"Public-Lines: 2\n{rand(rng, B64, 64)}\n{rand(rng, B64, 40)}\nPrivate-Lines: {private.count(chr(10)) + 1}\n"
    )
    return [head, Secret(private, "key_putty"), f"\nPrivate-MAC: {rand(rng, HEX, 64)}\n"]


def openvpn_static(rng: random.Random, where: str) -> list[Part]:
    body = "\n".join(rand(rng, HEX, 32) for _ in range(16))
    return [
        "<tls-auth>\n#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n",
        Secret(body, "key_openvpn_static"),
        "\n-----END OpenVPN Static key V1-----\n</tls-auth>",
    ]


def minisign(rng: random.Random, where: str) -> list[Part]:
    return [
        "untrusted comment: minisign encrypted secret key\n",
        Secret("RWRTY0Iy" + rand(rng, B64, 204), "key_minisign"),
        "\n",
    ]


def ssh2_encrypted(rng: random.Random, where: str) -> list[Part]:
    body = b64_lines(rng, 8, 70)
    return [
        '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key-2026"\n',
        Secret(body, "key_ssh2_encrypted"),
        "\n---- END SSH2 ENCRYPTED PRIVATE KEY ----",
    ]


def jwk_private(rng: random.Random, where: str) -> list[Part]:
    d = rand(rng, B64URL, 43)
    x, y = rand(rng, B64URL, 43), rand(rng, B64URL, 43)
    return [f'{{"kty":"EC","crv":"P-256","x":"{x}","y":"{y}","d":"', Secret(d, "key_jwk_private"), '"}']


def seed_phrase(language: str) -> Callable[[random.Random, str], list[Part]]:
    words = Mnemonic(language)

    def make(rng: random.Random, where: str) -> list[Part]:
        phrase = words.to_mnemonic(rng.randbytes(rng.choice([16, 32])))
        if language == "japanese":
            phrase = phrase.replace("\u3000", " ")
        layout = pick(
            rng,
            [
                "seed: {}",
                "my recovery phrase is {} keep it offline",
                "{}",
                "wallet backup\n{}\n",
                "Mnemonic: {}",
                'words = "{}"',
            ],
            where,
        )
        if layout == "wallet backup\n{}\n" and language == "english":
            phrase = "\n".join(f"{i}. {w}" for i, w in enumerate(phrase.split(), 1))
        before, after = layout.split("{}")
        return [before, Secret(phrase, f"seed_{language}"), after]

    return make


def base58check(payload: bytes) -> str:
    data = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    number = int.from_bytes(data, "big")
    out = ""
    while number:
        number, rest = divmod(number, 58)
        out = BASE58[rest] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


def wif(rng: random.Random, where: str) -> list[Part]:
    compressed = rng.random() < 0.5
    key = base58check(b"\x80" + rng.randbytes(32) + (b"\x01" if compressed else b""))
    before, after = pick(rng, ["{}", "import this: {}", "privkey {} (cold wallet)", "WIF: {}"], where).split("{}")
    return [before, Secret(key, "crypto_wif"), after]


def xprv(rng: random.Random, where: str) -> list[Part]:
    key = base58check(bytes.fromhex("0488ade4") + rng.randbytes(9) + rng.randbytes(32) + b"\0" + rng.randbytes(32))
    before, after = pick(rng, ["{}", "root key {} from the ledger", "xpriv: {}"], where).split("{}")
    return [before, Secret(key, "crypto_xprv"), after]


def eth_private(rng: random.Random, where: str) -> list[Part]:
    key = rng.choice(["0x", ""]) + rand(rng, HEX, 64)
    before, after = pick(
        rng,
        ["PRIVATE_KEY={}", "deployer private key: {}", "ETH_PK={}", 'wallet = Wallet("{}")', "my metamask key is {}"],
        where,
    ).split("{}")
    return [before, Secret(key, "crypto_eth_private_key"), after]


def solana_keypair(rng: random.Random, where: str) -> list[Part]:
    if rng.random() < 0.5:
        return [
            "cat ~/.config/solana/id.json\n",
            Secret(json.dumps(list(rng.randbytes(64))), "crypto_solana_keypair"),
            "",
        ]
    number = int.from_bytes(rng.randbytes(64), "big")
    out = ""
    while number:
        number, rest = divmod(number, 58)
        out = BASE58[rest] + out
    return ["phantom export: ", Secret(out, "crypto_solana_keypair"), ""]


FORMATS: list[Format] = (
    [vendor(name, make) for name, make in VENDORS]
    + [prose(name, templates) for name, templates in PROSE.items()]
    + [assignment(name, templates) for name, templates in ASSIGNMENTS.items()]
    + [
        Format("wrapped_docker_auth", "base64_wrapped", docker_auths),
        Format("wrapped_dockerconfigjson", "base64_wrapped", dockerconfigjson),
        Format("wrapped_k8s_secret_data", "base64_wrapped", k8s_secret),
        Format("wrapped_kubeconfig_key_data", "base64_wrapped", kubeconfig_key_data),
        Format("wrapped_base64_pipe", "base64_wrapped", base64_pipe),
        Format("wrapped_url_encoded", "escaped", url_encoded),
        Format("wrapped_json_escaped", "escaped", json_escaped),
        Format("key_putty", "key_file", putty),
        Format("key_openvpn_static", "key_file", openvpn_static),
        Format("key_minisign", "key_file", minisign),
        Format("key_ssh2_encrypted", "key_file", ssh2_encrypted),
        Format("key_jwk_private", "key_file", jwk_private),
        Format("crypto_wif", "crypto", wif),
        Format("crypto_xprv", "crypto", xprv),
        Format("crypto_eth_private_key", "crypto", eth_private),
        Format("crypto_solana_keypair", "crypto", solana_keypair),
    ]
    + [
        Format(f"seed_{language}", "seed_phrase", seed_phrase(language))
        for language in ["english", "spanish", "french", "italian", "portuguese", "czech", "japanese"]
    ]
)


# --- innocent look-alikes --------------------------------------------------------------------------


def sha(rng: random.Random, n: int) -> str:
    return rand(rng, HEX, n)


def b58(rng: random.Random, n: int) -> str:
    return rand(rng, BASE58, n)


def tiny_png(rng: random.Random) -> str:
    return base64.b64encode(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + rng.randbytes(rng.randint(40, 200))).decode()


def tiny_jpeg(rng: random.Random) -> str:
    return base64.b64encode(b"\xff\xd8\xff\xe0\0\x10JFIF\0" + rng.randbytes(rng.randint(40, 200))).decode()


NEGATIVES: dict[str, Callable[[random.Random], str]] = {
    "uuid_in_logs": lambda r: f"2026-11-27T10:00:01Z req={uuid4(r)} user={uuid4(r)} status=200",
    "uuid_json": lambda r: f'{{"id": "{uuid4(r)}", "parent": "{uuid4(r)}"}}',
    "uuid_prose": lambda r: f"the order {uuid4(r)} shipped",
    "git_log": lambda r: f"commit {sha(r, 40)}\nAuthor: Jane <jane@example.com>\n\n    fix parser",
    "git_short": lambda r: f"* {sha(r, 7)} (HEAD -> main) bump deps\n* {sha(r, 7)} add tests",
    "git_merge": lambda r: f"Merge pull request #{r.randint(1, 999)} from org/fix\n{sha(r, 40)}",
    "git_rev": lambda r: f"git rev-parse HEAD\n{sha(r, 40)}",
    "git_cherry": lambda r: f"cherry-picked from {sha(r, 40)}",
    "sha256_docker": lambda r: f"Digest: sha256:{sha(r, 64)}\nStatus: Downloaded newer image",
    "sha256sum": lambda r: f"{sha(r, 64)}  dist/app-1.2.3.tar.gz",
    "pip_hash": lambda r: f"requests==2.32.3 --hash=sha256:{sha(r, 64)}",
    "npm_integrity": lambda r: f'"integrity": "sha512-{rand(r, B64, 86)}=="',
    "md5_checksum": lambda r: f"MD5 ({rand(r, LOWER, 6)}.iso) = {sha(r, 32)}",
    "sha1_etag": lambda r: f'ETag: "{sha(r, 40)}"',
    "tx_hash": lambda r: f"tx hash 0x{sha(r, 64)} confirmed in block {r.randint(10**6, 10**7)}",
    "eth_address": lambda r: f"send to 0x{sha(r, 40)}",
    "btc_address": lambda r: f"donations: bc1q{rand(r, BECH32, 38)} or {base58check(bytes(1) + r.randbytes(20))}",
    "ipfs_pin": lambda r: f"ipfs pin add Qm{b58(r, 44)}",
    "pin_cid": lambda r: f"pin: Qm{b58(r, 44)}",
    "pin_cid_v1": lambda r: f"pin: bafybei{rand(r, BASE32_LOWER, 52)}",
    "data_uri_png": lambda r: f'<img src="data:image/png;base64,{tiny_png(r)}">',
    "data_uri_jpeg": lambda r: f"background: url(data:image/jpeg;base64,{tiny_jpeg(r)})",
    "raw_png_json": lambda r: f'{{"thumbnail": "{tiny_png(r)}"}}',
    "placeholder_sk": lambda r: r.choice(
        ["OPENAI_API_KEY=sk-...your-key-here...", "api_key: sk-...", "key = 'sk-xxxxxxxx'"]
    ),
    "placeholder_ghp": lambda r: r.choice(
        ["GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxx", "token: ghp_XXXX", "ghp_...your token"]
    ),
    "placeholder_words": lambda r: r.choice(
        [
            "API_KEY=<your-api-key>",
            'token: "REPLACE_ME"',
            "password = 'your_password_here'",
            "SECRET_KEY=changeme-in-production",
            "DB_PASSWORD=example",
            "client_secret: YOUR-CLIENT-SECRET",
            "password: {{ .Values.db.password }}",
            'password: "%(db_password)s"',
            "AWS_SECRET_ACCESS_KEY=AKIAXXXXXXXXXXXXXXXX",
            "token=$(cat /run/secrets/token)",
            "passwd: !vault |",
            "api_key: ${{ secrets.API_KEY }}",
        ]
    ),
    "mask": lambda r: r.choice(
        [
            '"password": "********"',
            "password: ••••••••",
            "card ****-****-****-" + rand(r, DIGITS, 4),
            "token: sk-****" + rand(r, ALNUM, 4),
            "Secret: [hidden]",
            "PASSWORD=***",
            "api key ending in ..." + rand(r, ALNUM, 4),
        ]
    ),
    "long_words": lambda r: r.choice(
        [
            "supercalifragilisticexpialidocious",
            "AbstractSingletonProxyFactoryBean",
            "Donaudampfschifffahrtsgesellschaftskapitän",
            "pneumonoultramicroscopicsilicovolcanoconiosis",
            "Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz",
            "antidisestablishmentarianism",
        ]
    ),
    "identifiers": lambda r: r.choice(
        [
            "test_scrubber_handles_unicode_passwords_and_tokens",
            "PasswordResetTokenGeneratorFactory",
            "org.springframework.security.crypto.password.PasswordEncoder",
            "/usr/lib/x86_64-linux-gnu/libssl.so.3",
            "numpy-1.26.4-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
            f"ip-10-0-{r.randint(0, 255)}-{r.randint(0, 255)}.eu-west-1.compute.internal",
            f"api-7d9f8c6b5d-{rand(r, LOWER + DIGITS, 5)}",
            "arn:aws:lambda:eu-west-1:123456789012:function:resize-images-prod",
            "com.google.android.gms.permission.AD_ID",
            "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion",
        ]
    ),
    "config_non_secret": lambda r: r.choice(
        [
            "token_type: Bearer",
            "auth_method: oauth2",
            "session_timeout: 3600",
            "cookie_secure: true",
            '"private": true',
            "key_file: /etc/ssl/private/server.key",
            "signing_algorithm: RS256",
            "passwordPolicy: strong",
            "DB_PASSWORD_FILE=/run/secrets/db_password",
            "tokenizer_name: bert-base-uncased",
            "KEY_VAULT_NAME=kv-prod-weu",
            "SESSION_COOKIE_NAME=sessionid",
            "password_reset_url: https://example.com/reset",
            "secret_ref: prod/db/credentials",
        ]
    ),
    "cli_non_secret": lambda r: r.choice(
        [
            "docker run -p 8080:80 -w /app node",
            "ssh -p 2222 admin@host",
            "ping -w 5 10.0.0.1",
            "mysql -h db -P 3306 -u app -p",
            "grep -P '\\d{4}' log.txt",
            "keytool -list -keystore app.jks",
            "zip -r backup.zip src/",
            "psql -W -U postgres",
            "ls -w 80",
        ]
    ),
    "sql_non_secret": lambda r: r.choice(
        [
            "SELECT id FROM users WHERE password_hash = $1",
            "ALTER USER app WITH PASSWORD NULL;",
            "GRANT SELECT ON orders TO reporter;",
            "UPDATE users SET password = crypt($1, gen_salt('bf'))",
        ]
    ),
    "prose_foreign": lambda r: r.choice(
        [
            "Das Passwort muss mindestens 12 Zeichen lang sein.",
            "Mot de passe oublié ? Cliquez ici.",
            "la contraseña es obligatoria",
            "пароль неверный, попробуйте снова",
            "パスワードを忘れた場合はこちら",
            "Het wachtwoord is verlopen.",
            "Hasło jest za krótkie.",
            "a senha é pessoal e intransferível",
            "la password è scaduta",
        ]
    ),
    "prose_english": lambda r: r.choice(
        [
            "the password, as I said yesterday, is in the vault",
            "the key for the meeting room is at reception",
            "the token for the event is a wooden coin",
            "our secret, which nobody knows, is hard work",
            "the API key is rotated every 30 days by the platform team",
            "the password for the wifi is on the fridge",
        ]
    ),
    "public_keys": lambda r: r.choice(
        [
            f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{rand(r, B64, 300)} me@host",
            f"Publishable key: pk_live_{rand(r, ALNUM, 24)}",
            f"mapbox public token pk.eyJ1Ijoi{rand(r, B64URL, 50)}.{rand(r, B64URL, 22)}",
            f"age1{rand(r, BASE32_LOWER, 58)}",
            f"wg PublicKey = {base64.b64encode(r.randbytes(32)).decode()}",
            f"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n{b64_lines(r, 4)}\n-----END PGP PUBLIC KEY BLOCK-----",
        ]
    ),
    "urls_ids": lambda r: r.choice(
        [
            f"https://www.youtube.com/watch?v={rand(r, B64URL, 11)}",
            f"https://github.com/org/repo/blob/{sha(r, 40)}/src/main.py",
            f"https://docs.google.com/document/d/{rand(r, B64URL, 44)}/edit",
            f"https://example.s3.amazonaws.com/uploads/{uuid4(r)}/photo.jpg",
            f"https://drive.google.com/file/d/{rand(r, B64URL, 33)}/view",
        ]
    ),
    "plain_prose_seedish": lambda r: r.choice(
        [
            "The early morning light fell across the quiet valley where the old farmer kept his sheep.",
            "please review the attached budget and tell me about any problem before the meeting",
            "abandon ship was the order, and the crew moved to the boats in silence",
        ]
    ),
}


def samples(where: str, seed: int, per_format: int, per_negative: int) -> Iterator[dict[str, object]]:
    rng = random.Random(f"{seed}-{where}")
    for fmt in FORMATS:
        if side(fmt.name) != where:
            continue
        for index in range(per_format):
            text, spans = render(fmt.make(rng, where))
            yield {
                "id": f"{fmt.name}-{index}",
                "format": fmt.name,
                "kind": fmt.kind,
                "negative": False,
                "text": text,
                "secrets": spans,
            }
    for name, make in NEGATIVES.items():
        if side(name) != where:
            continue
        for index in range(per_negative):
            yield {
                "id": f"neg:{name}-{index}",
                "format": f"neg:{name}",
                "kind": "look_alike",
                "negative": True,
                "text": make(rng),
                "secrets": [],
            }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--per-format", type=int, default=5)
    parser.add_argument("--per-negative", type=int, default=10)
    parser.add_argument("--out-dir", type=Path, default=HERE)
    args = parser.parse_args()
    for where in ("dev", "heldout"):
        rows = list(samples(where, args.seed, args.per_format, args.per_negative))
        path = args.out_dir / f"{where}.jsonl"
        with path.open("w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
        formats = len({row["format"] for row in rows if not row["negative"]})
        negatives = sum(bool(row["negative"]) for row in rows)
        print(
            f"{path}: {len(rows)} samples, {formats} formats, {len(rows) - negatives} with secrets, {negatives} look-alikes"
        )


if __name__ == "__main__":
    main()
