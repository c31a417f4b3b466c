"""Seeded generator of fake credentials, in the places people paste them, plus innocent look-alikes.

It knows the published *formats* (prefixes, alphabets, lengths, where a secret sits in a config
file or a command line) and nothing about the scrubber's rules, so the corpus can judge them.
Every secret is a random body of the right alphabet and length: real-looking, never real.

    python bench/secrets/generate.py            # writes bench/secrets/corpus.jsonl (seed 20261124)
    python bench/secrets/generate.py --seed 7 --per-format 20 --out /tmp/corpus.jsonl

Each JSONL line is one sample::

    {"id": "github_oauth-3", "format": "github_oauth", "negative": false, "text": "...",
     "secrets": [{"format": "github_oauth", "start": 12, "end": 52}]}

``secrets`` lists the spans of ``text`` that must not survive (the password of a URL, not its
host; the key of an ``AccountKey=`` pair, not the name). Negatives have ``format`` ``neg:<what>``
and no secrets: scrubbing must leave them exactly as they are.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import string
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

SEED = 20261124
HERE = Path(__file__).resolve().parent

UPPER, LOWER, DIGITS = string.ascii_uppercase, string.ascii_lowercase, string.digits
ALNUM = UPPER + LOWER + DIGITS
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
BASE32_UPPER = UPPER + "234567"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
# What a person types as a password: letters, digits and the symbols keyboards make easy.
PASSWORD_SYMBOLS = "!#$%&*+-=?@^_~."


@dataclass(frozen=True, slots=True)
class Secret:
    """A piece of a sample's text that must not survive scrubbing, and the format it belongs to."""

    value: str
    format: str


Part = str | Secret
Maker = Callable[[random.Random], list[Part]]


def rand(rng: random.Random, alphabet: str, length: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length))


def render(parts: Sequence[Part]) -> tuple[str, list[dict[str, object]]]:
    """The text of ``parts`` and the span of each secret in it."""
    text: list[str] = []
    spans: list[dict[str, object]] = []
    at = 0
    for part in parts:
        value = part.value if isinstance(part, Secret) else part
        if isinstance(part, Secret):
            spans.append({"format": part.format, "start": at, "end": at + len(value)})
        text.append(value)
        at += len(value)
    return "".join(text), spans


# --- where a self-identifying token (one with its own prefix) is found --------------------------

# (before, after): prose, shell, JSON, YAML, a query string, Markdown, a list of two, end of sentence.
# Names here are deliberately neutral so that only the token's own shape can identify it.
STANDALONE = [
    ("", ""),
    ("ran the deploy with ", " and it worked"),
    ("export DEPLOY_VALUE=", ""),
    ('{"value": "', '", "note": "from ops"}'),
    ("value: '", "'\nnext: 1"),
    ("see `", "` in the runbook"),
    ("(", ")"),
    ("It is ", "."),
    ("line one\n", "\nline three"),
    ("https://example.com/cb?state=xyz&value=", "&lang=en"),
    ("<td>", "</td>"),
    ("- ", "\n- second item"),
    ("old one revoked, new one: ", ", done"),
    ("\t", "\t"),
]


def standalone(fmt: str, make_token: Callable[[random.Random], str]) -> Maker:
    def make(rng: random.Random) -> list[Part]:
        before, after = rng.choice(STANDALONE)
        return [before, Secret(make_token(rng), fmt), after]

    return make


def in_context(fmt: str, make_value: Callable[[random.Random], str], templates: Sequence[str]) -> Maker:
    """A secret that only its surroundings identify; each template holds one ``{}``."""

    def make(rng: random.Random) -> list[Part]:
        before, after = rng.choice(templates).split("{}")
        return [before, Secret(make_value(rng), fmt), after]

    return make


def token(*pieces: str | tuple[str, int] | tuple[str, int, int]) -> Callable[[random.Random], str]:
    """A token builder: literal strings, (alphabet, length) or (alphabet, min, max) random runs."""

    def make(rng: random.Random) -> str:
        out = []
        for piece in pieces:
            if isinstance(piece, str):
                out.append(piece)
            elif len(piece) == 2:
                out.append(rand(rng, piece[0], piece[1]))
            else:
                out.append(rand(rng, piece[0], rng.randint(piece[1], piece[2])))
        return "".join(out)

    return make


def choice_token(*builders: Callable[[random.Random], str]) -> Callable[[random.Random], str]:
    return lambda rng: rng.choice(builders)(rng)


# --- bodies used by several formats --------------------------------------------------------------


def password(rng: random.Random) -> str:
    """Something a person would pick: a word with digits and a symbol, or a random string."""
    kind = rng.randrange(4)
    if kind == 0:
        word = rng.choice(["hunter", "dragon", "sunset", "falcon", "maple", "orbit", "violet"])
        digits = rand(rng, DIGITS, rng.randint(1, 4))
        return word + digits + rng.choice("-_.!#") + rng.choice(["Blue", "Red", "Sky", "X"])
    if kind == 1:
        return rand(rng, ALNUM + PASSWORD_SYMBOLS, rng.randint(10, 24))
    if kind == 2:
        # Guarantee a digit: short all-letter strings are prose, and people are told to add one.
        return rand(rng, ALNUM, rng.randint(7, 14)) + rng.choice(DIGITS)
    return rand(rng, ALNUM, rng.randint(20, 32))


def url_password(rng: random.Random) -> str:
    """A password as it appears in a URL: unreserved characters, sub-delims, percent-escapes."""
    pieces = [rand(rng, ALNUM, rng.randint(6, 16))]
    for _ in range(rng.randint(0, 3)):
        pieces.append(rng.choice(["!", "*", "-", "_", "~", "$", "+", ";", "=", "@", "%40", "%2F", "%3A", "%23"]))
        pieces.append(rand(rng, ALNUM, rng.randint(1, 6)))
    return "".join(pieces)


def b64_lines(rng: random.Random, lines: int) -> str:
    body = [rand(rng, B64, 64) for _ in range(lines)]
    return "\n".join(body + [rand(rng, B64, rng.randint(8, 60)) + rng.choice(["", "=", "=="])])


def pem(label: str) -> Callable[[random.Random], str]:
    def make(rng: random.Random) -> str:
        header = ""
        if label == "PGP PRIVATE KEY BLOCK":
            header = "Version: GnuPG v2\n\n"
        elif label == "RSA PRIVATE KEY" and rng.random() < 0.3:
            header = "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC," + rand(rng, HEX.upper(), 32) + "\n\n"
        body = b64_lines(rng, rng.randint(3, 20))
        if label == "PGP PRIVATE KEY BLOCK":
            body += "\n=" + rand(rng, B64, 4)
        return f"-----BEGIN {label}-----\n{header}{body}\n-----END {label}-----"

    return make


def jwt(rng: random.Random) -> str:
    def part(obj: dict[str, object]) -> str:
        raw = json.dumps(obj, separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    header = {"alg": rng.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"}
    claims = {
        "sub": rand(rng, DIGITS, 10),
        "iat": rng.randint(1_600_000_000, 1_900_000_000),
        "scope": rng.choice(["read", "admin"]),
    }
    signature = rand(rng, B64URL, rng.choice([43, 86, 342]))
    return f"{part(header)}.{part(claims)}.{signature}"


def uuid4(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def discord_bot_token(rng: random.Random) -> str:
    user_id = str(rng.randint(10**16, 10**19 - 1))
    first = base64.b64encode(user_id.encode()).decode().rstrip("=")
    return f"{first}.{rand(rng, B64URL, 6)}.{rand(rng, B64URL, rng.choice([27, 38]))}"


def sas_signature(rng: random.Random) -> str:
    return quote(base64.b64encode(rng.randbytes(32)).decode(), safe="")


def basic_credentials(rng: random.Random) -> str:
    user = rng.choice(["admin", "deploy", "svc-backup", "jane"])
    return base64.b64encode(f"{user}:{password(rng)}".encode()).decode()


def pin(rng: random.Random) -> str:
    return rand(rng, DIGITS, rng.randint(4, 8))


def machine_value(rng: random.Random) -> str:
    """An opaque key of no known vendor: hex, alphanumeric or base64url."""
    alphabet = rng.choice([HEX, ALNUM, B64URL])
    value = rand(rng, alphabet, rng.randint(16, 48))
    return value if any(c.isdigit() for c in value) else value + "7"


# --- formats that need more than one secret or a custom layout ----------------------------------


def url_with_password(fmt: str, schemes: Sequence[str], ports: str) -> Maker:
    def make(rng: random.Random) -> list[Part]:
        scheme = rng.choice(schemes)
        user = "" if scheme.startswith("redis") and rng.random() < 0.3 else rng.choice(["app", "admin", "svc_ro"])
        host = rng.choice(["db.internal", "10.0.3.7", "cluster0.ab1cd.example.net", "localhost"])
        tail = f"{host}:{ports}/" + rng.choice(["app", "prod?sslmode=require", "0", "vhost", "admin?retryWrites=true"])
        before, after = rng.choice(
            [("", ""), ("DATABASE_URL=", ""), ('{"uri": "', '"}'), ("connect with ", " and retry"), ("url: ", "\n")]
        )
        return [f"{before}{scheme}://{user}:", Secret(url_password(rng), fmt), f"@{tail}{after}"]

    return make


def aws_pair(rng: random.Random) -> list[Part]:
    key_id = Secret("AKIA" + rand(rng, BASE32_UPPER, 16), "aws_access_key_id")
    secret = Secret(rand(rng, ALNUM + "+/", 40), "aws_secret_access_key")
    layouts: list[list[Part]] = [
        ["[default]\naws_access_key_id = ", key_id, "\naws_secret_access_key = ", secret, "\nregion = eu-west-1"],
        ["export AWS_ACCESS_KEY_ID=", key_id, "\nexport AWS_SECRET_ACCESS_KEY=", secret],
        ['{"AccessKey": {"AccessKeyId": "', key_id, '", "SecretAccessKey": "', secret, '", "Status": "Active"}}'],
        ["aws_access_key_id: ", key_id, "\naws_secret_access_key: ", secret, "\n"],
        ["aws configure set aws_secret_access_key ", secret],
        ["tool sync --access-key-id ", key_id, " --secret-access-key ", secret, " --region us-east-1"],
        ["boto3.client('s3', aws_access_key_id='", key_id, "', aws_secret_access_key='", secret, "')"],
        ['AWS_SECRET_ACCESS_KEY: "', secret, '"'],
        ["aws.secretKey=", secret, "\naws.region=eu-central-1"],
    ]
    return rng.choice(layouts)


def gcp_service_account(rng: random.Random) -> list[Part]:
    body = b64_lines(rng, rng.randint(10, 20)).replace("\n", "\\n")
    key = f"-----BEGIN PRIVATE KEY-----\\n{body}\\n-----END PRIVATE KEY-----\\n"
    project = rng.choice(["acme-prod", "demo-123"])
    return [
        (
            f'{{"type": "service_account", "project_id": "{project}", "private_key_id": "{rand(rng, HEX, 40)}", '
            '"private_key": "'
        ),
        Secret(key, "gcp_service_account_key"),
        f'", "client_email": "ci@{project}.iam.gserviceaccount.com", "client_id": "{rand(rng, DIGITS, 21)}"}}',
    ]


def azure_storage_connection_string(rng: random.Random) -> list[Part]:
    key = base64.b64encode(rng.randbytes(64)).decode()
    account = rand(rng, LOWER + DIGITS, 12)
    return [
        f"DefaultEndpointsProtocol=https;AccountName={account};AccountKey=",
        Secret(key, "azure_storage_account_key"),
        ";EndpointSuffix=core.windows.net",
    ]


def azure_service_bus_connection_string(rng: random.Random) -> list[Part]:
    key = base64.b64encode(rng.randbytes(32)).decode()
    namespace = rand(rng, LOWER, 8)
    return [
        (
            f"Endpoint=sb://{namespace}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;"
            "SharedAccessKey="
        ),
        Secret(key, "azure_shared_access_key"),
        rng.choice(["", ";EntityPath=orders"]),
    ]


def azure_sas(fmt: str, connection_string: bool) -> Maker:
    def make(rng: random.Random) -> list[Part]:
        account = rand(rng, LOWER + DIGITS, 10)
        params = [
            "sv=2022-11-02",
            "ss=bfqt",
            "srt=sco",
            "sp=rwdlacupiytfx",
            "se=2026-12-31T23:59:59Z",
            "st=2026-11-24T08:00:00Z",
            "spr=https",
        ]
        rng.shuffle(params)
        cut = rng.randint(0, len(params))
        head, tail = "&".join(params[:cut]), "&".join(params[cut:])
        sig = Secret(sas_signature(rng), fmt)
        query_head = head + "&sig=" if head else "sig="
        query_tail = "&" + tail if tail else ""
        if connection_string:
            prefix = f"BlobEndpoint=https://{account}.blob.core.windows.net/;SharedAccessSignature="
            return [prefix + query_head, sig, query_tail]
        return [f"curl 'https://{account}.blob.core.windows.net/backups/db.tar?" + query_head, sig, query_tail + "'"]

    return make


def twilio_auth_token(rng: random.Random) -> list[Part]:
    sid = "AC" + rand(rng, HEX, 32)
    secret = Secret(rand(rng, HEX, 32), "twilio_auth_token")
    layouts: list[list[Part]] = [
        [f"TWILIO_ACCOUNT_SID={sid}\nTWILIO_AUTH_TOKEN=", secret],
        [f'client = Client("{sid}", "', secret, '")'],
        [f"curl -X POST https://api.twilio.com/2010-04-01/Accounts/{sid}/Messages.json -u {sid}:", secret],
        [f'account_sid = "{sid}"\nauth_token = "', secret, '"'],
    ]
    return rng.choice(layouts)


def slack_webhook(rng: random.Random) -> list[Part]:
    path = f"T{rand(rng, UPPER + DIGITS, 10)}/B{rand(rng, UPPER + DIGITS, 10)}/{rand(rng, ALNUM, 24)}"
    return ["curl -X POST -d @msg.json https://hooks.slack.com/services/", Secret(path, "slack_webhook_url"), ""]


def discord_webhook(rng: random.Random) -> list[Part]:
    host = rng.choice(["discord.com", "discordapp.com", "canary.discord.com"])
    return [
        f"webhook: https://{host}/api/webhooks/{rand(rng, DIGITS, 18)}/",
        Secret(rand(rng, B64URL, 68), "discord_webhook_url"),
        rng.choice(["", "\n", " (alerts)"]),
    ]


def netrc(rng: random.Random) -> list[Part]:
    sep = rng.choice([" ", "\n  "])
    before = f"machine api.example.com{sep}login deploy@example.com{sep}password "
    return [before, Secret(password(rng), "netrc_password"), "\n"]


def heroku_uuid(rng: random.Random) -> list[Part]:
    secret = Secret(uuid4(rng), "heroku_api_key_uuid")
    layouts: list[list[Part]] = [
        ["HEROKU_API_KEY=", secret],
        ["heroku_api_key: ", secret, "\n"],
        ["machine api.heroku.com\n  login me@example.com\n  password ", secret, "\n"],
    ]
    return rng.choice(layouts)


def mixed_pair(rng: random.Random) -> list[Part]:
    """Two secrets of different formats next to each other."""
    first, second = rng.sample(SELF_IDENTIFYING, 2)
    sep = rng.choice([" ", ",", "\n", ", ", " | ", ";"])
    return [Secret(first[1](rng), first[0]), sep, Secret(second[1](rng), second[0])]


# --- the formats ---------------------------------------------------------------------------------

# Tokens that carry their own prefix or shape: (format, builder). Scrubbing must find them anywhere.
SELF_IDENTIFYING: list[tuple[str, Callable[[random.Random], str]]] = [
    ("aws_access_key_id", token("AKIA", (BASE32_UPPER, 16))),
    ("aws_temporary_access_key_id", token("ASIA", (BASE32_UPPER, 16))),
    ("github_pat_classic", token("ghp_", (ALNUM, 36))),
    ("github_pat_fine_grained", token("github_pat_", (ALNUM, 22), "_", (ALNUM, 59))),
    ("github_oauth", token("gho_", (ALNUM, 36))),
    ("github_app_user_to_server", token("ghu_", (ALNUM, 36))),
    ("github_app_installation", token("ghs_", (ALNUM, 36))),
    ("github_refresh", token("ghr_", (ALNUM, 36, 76))),
    (
        "gitlab_pat",
        choice_token(token("glpat-", (B64URL, 20)), token("glpat-", (B64URL, 27), ".01.", (LOWER + DIGITS, 9))),
    ),
    ("gitlab_deploy_token", token("gldt-", (B64URL, 20))),
    ("gitlab_runner_auth_token", token("glrt-", (B64URL, 20, 27))),
    ("gitlab_runner_registration", token("GR1348941", (B64URL, 20))),
    ("gitlab_pipeline_trigger", token("glptt-", (HEX, 40))),
    ("gitlab_ci_job_token", token("glcbt-", (HEX, 2), "_", (B64URL, 20))),
    ("gitlab_oauth_app_secret", token("gloas-", (HEX, 64))),
    ("gitlab_feed_token", token("glft-", (B64URL, 20))),
    ("gitlab_agent_token", token("glagent-", (B64URL, 50))),
    ("gitlab_scim_token", token("glsoat-", (B64URL, 20))),
    ("slack_bot_token", token("xoxb-", (DIGITS, 11, 13), "-", (DIGITS, 11, 13), "-", (ALNUM, 24))),
    ("slack_user_token", token("xoxp-", (DIGITS, 11), "-", (DIGITS, 11), "-", (DIGITS, 13), "-", (HEX, 32))),
    ("slack_app_token", token("xapp-1-A", (UPPER + DIGITS, 10), "-", (DIGITS, 13), "-", (HEX, 64))),
    ("slack_config_token", token("xoxe.xoxp-1-", (ALNUM, 140, 160))),
    (
        "stripe_secret_key",
        choice_token(token("sk_live_", (ALNUM, 24)), token("sk_test_", (ALNUM, 24)), token("sk_live_", (ALNUM, 99))),
    ),
    ("stripe_restricted_key", choice_token(token("rk_live_", (ALNUM, 24, 99)), token("rk_test_", (ALNUM, 24, 99)))),
    ("stripe_webhook_secret", token("whsec_", (ALNUM, 32))),
    ("openai_legacy_key", token("sk-", (ALNUM, 20), "T3BlbkFJ", (ALNUM, 20))),
    ("openai_project_key", token("sk-proj-", (B64URL, 74), "T3BlbkFJ", (B64URL, 74))),
    ("openai_service_account_key", token("sk-svcacct-", (B64URL, 74), "T3BlbkFJ", (B64URL, 74))),
    ("openai_admin_key", token("sk-admin-", (B64URL, 74), "T3BlbkFJ", (B64URL, 74))),
    ("anthropic_api_key", token("sk-ant-api03-", (B64URL, 93), "AA")),
    ("anthropic_admin_key", token("sk-ant-admin01-", (B64URL, 93), "AA")),
    ("google_api_key", token("AIza", (B64URL, 35))),
    ("google_oauth_client_secret", token("GOCSPX-", (B64URL, 28))),
    ("google_oauth_access_token", token("ya29.", (B64URL, 100, 200))),
    ("jwt", jwt),
    ("private_key_rsa", pem("RSA PRIVATE KEY")),
    ("private_key_ec", pem("EC PRIVATE KEY")),
    ("private_key_dsa", pem("DSA PRIVATE KEY")),
    ("private_key_openssh", pem("OPENSSH PRIVATE KEY")),
    ("private_key_pkcs8", pem("PRIVATE KEY")),
    ("private_key_pkcs8_encrypted", pem("ENCRYPTED PRIVATE KEY")),
    ("private_key_pgp", pem("PGP PRIVATE KEY BLOCK")),
    ("azure_ad_client_secret", token((ALNUM, 3), (DIGITS, 1), "Q~", (ALNUM + "_~.-", 34))),
    ("twilio_api_key", token("SK", (HEX, 32))),
    ("sendgrid_api_key", token("SG.", (B64URL, 22), ".", (B64URL, 43))),
    ("npm_token", token("npm_", (ALNUM, 36))),
    (
        "pypi_token",
        choice_token(
            token("pypi-AgEIcHlwaS5vcmc", (B64URL, 70, 180)), token("pypi-AgENdGVzdC5weXBpLm9yZw", (B64URL, 70, 180))
        ),
    ),
    ("dockerhub_pat", token("dckr_pat_", (B64URL, 27))),
    ("huggingface_token", token("hf_", (UPPER + LOWER, 34))),
    ("heroku_api_key", token("HRKU-AA", (B64URL, 58))),
    ("digitalocean_pat", token("dop_v1_", (HEX, 64))),
    ("digitalocean_oauth", token("doo_v1_", (HEX, 64))),
    ("digitalocean_refresh", token("dor_v1_", (HEX, 64))),
    ("shopify_access_token", token("shpat_", (HEX, 32))),
    ("shopify_custom_app_token", token("shpca_", (HEX, 32))),
    ("shopify_private_app_token", token("shppa_", (HEX, 32))),
    ("shopify_shared_secret", token("shpss_", (HEX, 32))),
    ("square_access_token", token("EAAA", (B64URL, 60))),
    ("square_legacy_access_token", token("sq0atp-", (B64URL, 22))),
    ("square_oauth_secret", token("sq0csp-", (B64URL, 43))),
    ("mailgun_api_key", token("key-", (HEX, 32))),
    ("telegram_bot_token", token((DIGITS[1:], 1), (DIGITS, 7, 9), ":AA", (B64URL, 33))),
    ("discord_bot_token", discord_bot_token),
    ("vault_service_token", token("hvs.", (B64URL, 90, 100))),
    ("vault_batch_token", token("hvb.", (B64URL, 130, 150))),
    (
        "hippograph_api_key",
        choice_token(
            token("hgk_", (LOWER[:-4] + "234567", 12), "_", (B64URL, 43)), token("hgk_", (HEX, 12), "_", (B64URL, 43))
        ),
    ),
    ("age_secret_key", token("AGE-SECRET-KEY-1", (BECH32, 58))),
    ("atlassian_api_token", token("ATATT3xFfGF0", (B64URL, 170), "=", (HEX.upper(), 8))),
    ("linear_api_key", token("lin_api_", (ALNUM, 40))),
    ("notion_token", choice_token(token("ntn_", (DIGITS, 11), (ALNUM, 35)), token("secret_", (ALNUM, 43)))),
    ("postman_api_key", token("PMAK-", (HEX, 24), "-", (HEX, 34))),
    ("grafana_service_account_token", token("glsa_", (ALNUM, 32), "_", (HEX, 8))),
    ("new_relic_user_key", token("NRAK-", (UPPER + DIGITS, 27))),
    ("sentry_user_token", token("sntryu_", (HEX, 64))),
    ("doppler_token", token("dp.pt.", (ALNUM, 43))),
    ("pulumi_token", token("pul-", (HEX, 40))),
    ("terraform_cloud_token", token((ALNUM, 14), ".atlasv1.", (B64URL, 67))),
    ("supabase_token", token("sbp_", (HEX, 40))),
    ("databricks_token", choice_token(token("dapi", (HEX, 32)), token("dapi", (HEX, 32), "-2"))),
    ("figma_token", token("figd_", (B64URL, 40))),
    ("groq_api_key", token("gsk_", (ALNUM, 52))),
    ("replicate_token", token("r8_", (ALNUM, 37))),
    ("perplexity_api_key", token("pplx-", (ALNUM, 48))),
    ("rubygems_api_key", token("rubygems_", (HEX, 48))),
    ("planetscale_token", choice_token(token("pscale_tkn_", (B64URL, 43)), token("pscale_pw_", (B64URL, 43)))),
    ("brevo_api_key", token("xkeysib-", (HEX, 64), "-", (ALNUM, 16))),
    ("bitbucket_app_password", token("ATBB", (ALNUM, 32))),
]

# Secrets identified by where they sit.
CONTEXTUAL: dict[str, Maker] = {
    "aws_secret_access_key": aws_pair,
    "aws_session_token": in_context(
        "aws_session_token",
        token("IQoJb3JpZ2luX2Vj", (B64, 200, 300), "="),
        ["AWS_SESSION_TOKEN={}", "aws_session_token = {}\n", '"SessionToken": "{}"'],
    ),
    "gcp_service_account_key": gcp_service_account,
    "postgres_url": url_with_password("postgres_url", ["postgres", "postgresql"], "5432"),
    "mysql_url": url_with_password("mysql_url", ["mysql", "mysql+pymysql"], "3306"),
    "mongodb_url": url_with_password("mongodb_url", ["mongodb", "mongodb+srv"], "27017"),
    "redis_url": url_with_password("redis_url", ["redis", "rediss"], "6379"),
    "amqp_url": url_with_password("amqp_url", ["amqp", "amqps"], "5672"),
    "https_url_credentials": url_with_password("https_url_credentials", ["https", "http"], "443"),
    "azure_storage_account_key": azure_storage_connection_string,
    "azure_shared_access_key": azure_service_bus_connection_string,
    "azure_sas_connection_string": azure_sas("azure_sas_connection_string", connection_string=True),
    "azure_sas_token_url": azure_sas("azure_sas_token_url", connection_string=False),
    "azure_client_secret_named": in_context(
        "azure_client_secret_named",
        token((ALNUM + "_~.-", 34, 40), (DIGITS, 1)),
        ["AZURE_CLIENT_SECRET={}", '"clientSecret": "{}"', "azure_client_secret: {}\n"],
    ),
    "twilio_auth_token": twilio_auth_token,
    "slack_webhook_url": slack_webhook,
    "discord_webhook_url": discord_webhook,
    "datadog_api_key": in_context(
        "datadog_api_key",
        token((HEX, 32)),
        ["DD_API_KEY={}", "api_key: {}\nsite: datadoghq.eu", "-H 'DD-API-KEY: {}'", 'DATADOG_API_KEY="{}"'],
    ),
    "datadog_app_key": in_context(
        "datadog_app_key",
        token((HEX, 40)),
        ["DD_APP_KEY={}", "-H 'DD-APPLICATION-KEY: {}'", "DATADOG_APPLICATION_KEY={}", "dd_app_key: {}\n"],
    ),
    "heroku_api_key_uuid": heroku_uuid,
    "vault_legacy_token": in_context(
        "vault_legacy_token",
        token("s.", (ALNUM, 24)),
        ["VAULT_TOKEN={}", "-H 'X-Vault-Token: {}'", "vault login {}", 'export VAULT_TOKEN="{}"'],
    ),
    "authorization_token_header": in_context(
        "authorization_token_header",
        token((HEX + ALNUM, 20, 40)),
        [
            "Authorization: Token {}",
            "curl -H 'Authorization: token {}' https://api.example.com",
            '{"Authorization": "Token {}"}',
            "Authorization: SSWS {}",
        ],
    ),
    "authorization_bearer_header": in_context(
        "authorization_bearer_header",
        token((B64URL + ".~", 20, 64)),
        [
            "Authorization: Bearer {}",
            'curl -H "Authorization: Bearer {}" https://api.example.com/v1',
            "headers = {'Authorization': 'Bearer {}'}",
            "authorization: bearer {}\n",
        ],
    ),
    "basic_auth_header": in_context(
        "basic_auth_header",
        basic_credentials,
        [
            "Authorization: Basic {}",
            "curl -H 'Authorization: Basic {}' https://example.com",
            '"authorization": "Basic {}"',
        ],
    ),
    "curl_user_password": in_context(
        "curl_user_password",
        password,
        ["curl -u admin:{} https://api.example.com", "curl --user 'deploy:{}' https://x.example.com/upload"],
    ),
    "mysql_cli_password": in_context(
        "mysql_cli_password",
        password,
        [
            "mysql -u root -p{} app_db",
            "mysqldump -h db -uroot -p'{}' shop > shop.sql",
            "mysql -h 10.0.0.5 -P 3306 -u app -p{}",
        ],
    ),
    "cli_password_flag": in_context(
        "cli_password_flag",
        password,
        [
            "mysql --user=root --password={} app",
            "docker login -u me --password {} registry.example.com",
            "redis-cli -h cache -a {} ping",
            "sshpass -p '{}' ssh admin@10.0.0.2",
        ],
    ),
    "pgpassword_env": in_context(
        "pgpassword_env",
        password,
        ["PGPASSWORD={} psql -h db -U app", "export PGPASSWORD='{}'"],
    ),
    "netrc_password": netrc,
    "password_assignment": in_context(
        "password_assignment",
        password,
        [
            "password={}",
            "DB_PASSWORD: {}\n",
            '{"passphrase": "{}"}',
            "Server=db;User Id=sa;Password={};Encrypt=true",
            "spring.datasource.password={}\n",
            '  admin_password = "{}"\n',
        ],
    ),
    "generic_api_key_assignment": in_context(
        "generic_api_key_assignment",
        machine_value,
        [
            "WEATHER_API_KEY={}",
            'client_secret: "{}"',
            '{"access_token": "{}"}',
            "webhook_secret = '{}'",
            "X_AUTH_TOKEN={}",
            "apiKey: {}\n",
            "?api_key={}&units=metric",
        ],
    ),
    "prose_password": in_context(
        "prose_password",
        password,
        [
            "the password is {}",
            "My wifi password is {} btw",
            "her password was {} until yesterday",
            "the password for the router is {}",
            'Password is "{}"',
            "the admin password is {}\nthanks",
        ],
    ),
    "prose_pin": in_context(
        "prose_pin",
        pin,
        ["my pin is {}", "The PIN code is {} for the door", "passcode is {}", "my passcode: {}"],
    ),
    "prose_secret": in_context(
        "prose_secret",
        lambda rng: rng.choice([password, machine_value])(rng),
        ["secret: {}", "the secret is {}", "client secret is {} (prod)"],
    ),
    "prose_api_key": in_context(
        "prose_api_key",
        machine_value,
        ["api key is {}", "My API key is {}", "the access token is {} - rotate it", "token: {}"],
    ),
    "two_adjacent_secrets": mixed_pair,
}

FORMATS: dict[str, Maker] = {name: standalone(name, build) for name, build in SELF_IDENTIFYING} | CONTEXTUAL


# --- innocent look-alikes ------------------------------------------------------------------------


def _hexes(rng: random.Random, n: int) -> str:
    return rand(rng, HEX, n)


NEGATIVES: dict[str, Callable[[random.Random], str]] = {
    "uuid": lambda r: r.choice(["request id {} failed", '{{"id": "{}"}}', "trace_id={}", "session {} closed"]).format(
        uuid4(r)
    ),
    "git_sha": lambda r: r.choice(["fixed in commit {}", "git checkout {}", "Merge {} into main"]).format(
        _hexes(r, 40)
    ),
    "git_short_sha": lambda r: r.choice(["HEAD is now at {} fix typo", "see {}", "reverts {}."]).format(
        _hexes(r, r.randint(7, 12))
    ),
    "md5": lambda r: r.choice(["{}  release.tar.gz", "md5: {}", 'ETag: "{}"']).format(_hexes(r, 32)),
    "sha1": lambda r: f"sha1sum {_hexes(r, 40)} file.bin",
    "sha256": lambda r: r.choice(["sha256:{}", "image@sha256:{}", "SHA256 (app.zip) = {}", "digest: sha256={}"]).format(
        _hexes(r, 64)
    ),
    "base64_blob": lambda r: (
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB"
        + base64.b64encode(r.randbytes(r.randint(60, 400))).decode()
    ),
    "base64_blob_raw": lambda r: "payload: " + base64.b64encode(r.randbytes(r.randint(30, 300))).decode(),
    "public_key": lambda r: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + rand(r, B64, 43) + " jane@laptop",
    "certificate": lambda r: "-----BEGIN CERTIFICATE-----\n" + b64_lines(r, 5) + "\n-----END CERTIFICATE-----",
    "pem_public_key": lambda r: "-----BEGIN PUBLIC KEY-----\n" + b64_lines(r, 4) + "\n-----END PUBLIC KEY-----",
    "prose": lambda r: r.choice(
        [
            "my password is long and nobody knows it",
            "The secret is patience.",
            "the secret is patience",
            "I reset my password yesterday",
            "The API key is stored in Vault.",
            "Tokens expire after 3600 seconds.",
            "Rotate keys every 90 days.",
            "the password is required",
            "your password is case-sensitive",
            "the token is invalid, please log in again",
            "the key is in the drawer",
            "My PIN is the usual one",
            "Password: see the 1Password entry for prod",
            "the password is at least 12 characters long",
            "Use a strong password with 12+ characters.",
            "bearer tokens are sent in the Authorization header",
            "he was the bearer of bad-news-and-worse-news",
            "the passcode is the same as before",
            "secret: nobody knows",
            "The api key is missing from the request",
            "my password is hunter two words",
            "Basic auth is disabled on this endpoint",
            "The access token was revoked at 10:42.",
            "the password is the same as the wifi one",
            "my password is 8 characters",
            "use --password to pass it",
            "The API key is 32 characters long",
            "the api key is stored in AWS Secrets Manager",
            "PIN entry failed 3 times",
            "Set the password to something memorable",
            "the bearer bond matures in 2030",
        ]
    ),
    "version": lambda r: r.choice(
        ["v{}.{}.{}", "version {}.{}.{}-rc.1", "requests=={}.{}.{}", "node v{}.{}.{}", "release-{}.{}.{}"]
    ).format(r.randint(0, 30), r.randint(0, 30), r.randint(0, 300)),
    "url_no_credentials": lambda r: r.choice(
        [
            "https://example.com/path?q=1&page=2",
            "ssh://git@github.com/org/repo.git",
            "git@github.com:org/repo.git",
            "https://user@host.example.com/",
            "postgres://db.internal:5432/app",
            "redis://localhost:6379/0",
            "mongodb://mongo-0.mongo:27017,mongo-1.mongo:27017/?replicaSet=rs0",
            "amqp://rabbitmq:5672/vhost",
            "mailto:ops@example.com",
            "https://example.com:8443/a/b@c",
            "http://localhost:8080/?next=/login",
        ]
    ),
    "number": lambda r: r.choice(["call +1 415 555 {:04d}", "order {}", "port {}", "ts {}", "IP 10.0.{}.7"]).format(
        r.randint(0, 10 ** r.randint(2, 12))
    ),
    "code_identifier": lambda r: r.choice(
        [
            "max_tokens: 4096",
            "num_tokens = 8192",
            "token_count=12",
            'api_key = os.environ["OPENAI_API_KEY"]',
            "password = getpass.getpass()",
            "api_key = settings.OPENAI_API_KEY",
            "secretKeyRef:\n  name: db\n  key: password",
            "password_min_length: 12",
            "secret_name: db-credentials",
            "token = None",
            "password: ${DB_PASSWORD}",
            "if password == expected: return True",
            "self.api_key = api_key",
            "tokenizer: bert-base-uncased",
            'AUTH_TOKEN_HEADER = "X-Auth-Token"',
            "password = request.form['password']",
            "key: value",
            "Authorization: Bearer <token>",
            "Authorization: Bearer $TOKEN",
            "password=$PGPASS",
            "docker run -u 1000:1000 -p 8080:80 app",
            "git push -u origin main",
            "mysql -u root -p",
            "let token = await getToken();",
            "const secret = process.env.SECRET;",
        ]
    ),
    "prefix_mention": lambda r: r.choice(
        [
            "we use sk-learn-compatible-estimators here",
            "classic tokens start with ghp_ and fine-grained ones with github_pat_",
            "AKIA means a long-term key, ASIA a temporary one",
            "a key-value store",
            "hf_hub_download(repo_id)",
            "glpat- tokens expire",
            "Stripe publishable key pk_live_" + rand(r, ALNUM, 24),
            "xoxb- is the bot prefix",
            "arn:aws:iam::" + rand(r, DIGITS, 12) + ":role/deploy",
            rand(r, DIGITS, 12) + "-" + rand(r, LOWER + DIGITS, 32) + ".apps.googleusercontent.com",
        ]
    ),
    "placeholder": lambda r: r.choice(
        [
            "api_key: YOUR_API_KEY",
            "token: <your-token-here>",
            "password: <redacted>",
            "Password: ********",
            "password: [hidden]",
            "Authorization: Bearer ${TOKEN}",
            "Authorization: Bearer {token}",
            "password: ''",
            "secret: null",
            "api_key = None",
            "OPENAI_API_KEY=YOUR_OPENAI_API_KEY_HERE",
            "password: xxxxxxxx",
            "curl -u $USER:$PASS https://x",
            "--password $DB_PASS",
        ]
    ),
    # A name that sounds secret with a count, or a hash under a name that is not secret. (A 64-hex
    # value named "token" is a secret, so that pairing is not a look-alike.)
    "named_number_or_hash": lambda r: r.choice(
        [
            "input_tokens: {n}, output_tokens: {n}",
            "token_ttl={n}",
            "token: {n}",
            "secret_key_id = {n}",
            "checksum={h}",
            "hash: {h}",
            "digest={h}",
            'ETag: W/"{h}"',
        ]
    ).format(n=r.randint(0, 4096), h=_hexes(r, r.choice([32, 40, 64]))),
    "email_path_date": lambda r: r.choice(
        [
            "mail jane.doe@example.com",
            "~/.aws/credentials",
            "/home/user/.ssh/id_rsa",
            "2026-11-24T10:00:00Z",
            "C:\\Users\\me\\secrets.txt",
            "color: #" + _hexes(r, 6),
            "bcrypt: $2b$12$" + rand(r, ALNUM + "./", 53),
        ]
    ),
}


def samples(seed: int = SEED, per_format: int = 12, per_negative: int = 20) -> Iterator[dict[str, object]]:
    """The corpus: ``per_format`` samples of each format, then ``per_negative`` of each look-alike."""
    rng = random.Random(seed)
    for name, make in FORMATS.items():
        for index in range(per_format):
            text, spans = render(make(rng))
            yield {"id": f"{name}-{index}", "format": name, "negative": False, "text": text, "secrets": spans}
    for name, make_negative in NEGATIVES.items():
        for index in range(per_negative):
            text = make_negative(rng)
            yield {"id": f"neg:{name}-{index}", "format": f"neg:{name}", "negative": True, "text": text, "secrets": []}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--per-format", type=int, default=12)
    parser.add_argument("--per-negative", type=int, default=20)
    parser.add_argument("--out", type=Path, default=HERE / "corpus.jsonl")
    args = parser.parse_args()
    rows = list(samples(args.seed, args.per_format, args.per_negative))
    with args.out.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    positives = sum(not row["negative"] for row in rows)
    print(f"wrote {len(rows)} samples ({positives} with secrets, {len(rows) - positives} look-alikes) to {args.out}")


if __name__ == "__main__":
    main()
