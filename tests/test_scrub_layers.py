"""The scrubber's generic layers, each alone and together: secrets of no listed format are found by the
words around them, the name they are assigned to, their shape or what they decode to, and look-alikes
(hashes, ids, media, placeholders) stay.

Every secret is assembled at run time from a seeded generator, so the repository holds none.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from pathlib import Path

import pytest
from mnemonic import Mnemonic

from hippograph.kernel.text.scrub import ALL_LAYERS, LAYERS, credential_rules, prefilter_form, scrub_credentials
from hippograph.kernel.text.secretscan.assignments import secret_name
from hippograph.kernel.text.secretscan.base58 import decode_check, is_address
from hippograph.kernel.text.secretscan.shapes import is_password_like, is_placeholder, looks_random

RNG = random.Random(20261128)
ALNUM = string.ascii_letters + string.digits
CORPORA = Path(__file__).resolve().parents[1] / "bench" / "secrets"


def rand(alphabet: str, length: int) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(length))


def machine(length: int = 32) -> str:
    return rand(string.ascii_uppercase, 2) + rand("0123456789", 2) + rand(ALNUM, length - 4)


def password() -> str:
    return rand(string.ascii_letters, 6) + rand("0123456789", 3) + "!"


def only(layer: str) -> frozenset[str]:
    return frozenset({layer, "placeholders"})


def assert_gone(secret: str, text: str, layers: frozenset[str] = ALL_LAYERS) -> str:
    scrubbed = scrub_credentials(text, layers).text
    assert secret not in scrubbed, scrubbed
    assert "[REDACTED:" in scrubbed
    return scrubbed


def assert_kept(text: str, layers: frozenset[str] = ALL_LAYERS) -> None:
    assert scrub_credentials(text, layers).text == text


# --- keyword-anchored prose -------------------------------------------------------------------------

PROSE = [
    "the password, which I changed yesterday, is {}",
    "token for the staging cluster is {} (rotate it)",
    "the signing key we use for releases: {}",
    "Das Passwort für den Router lautet {}",
    "le mot de passe du NAS est {}",
    "la contraseña del servidor es {}",
    "la password del router è {}",
    "a senha do banco é {}",
    "het wachtwoord van de server is {}",
    "hasło do serwera to {}",
    "пароль от базы — {}",
    "サーバーのパスワードは{}",
    "log in with {} and change it",
]


@pytest.mark.parametrize("template", PROSE)
def test_prose_in_eleven_languages_is_redacted_by_the_keyword_layer_alone(template: str) -> None:
    secret = password()
    assert_gone(secret, template.format(secret), only("keyword"))


@pytest.mark.parametrize(
    "text",
    [
        "the password, as I said yesterday, is in the vault",
        "your password is case-sensitive and at least 12 characters long",
        "Das Passwort muss mindestens 12 Zeichen lang sein.",
        "la contraseña es obligatoria",
        "the key for the meeting room is at reception",
        "the token for the event is a wooden coin",
        "token_ttl=3600 and password_min_length=12",
        "my PIN is the usual one",
    ],
)
def test_prose_about_secrets_is_kept(text: str) -> None:
    assert_kept(text)


def test_a_pin_is_digits_and_a_content_id_after_pin_is_not_one() -> None:
    assert_gone("4821", "my pin is 4821", only("keyword"))
    assert_kept("pin: Qm" + rand("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 44))


# --- assignments ------------------------------------------------------------------------------------

ASSIGNMENTS = [
    "DB_PASS={}",
    "export LDAP_PW='{}'",
    "  smtp_pwd: {}\n",
    '{{"auth": {{"clientSecret": "{}"}}}}',
    '[database]\npassword = "{}"\n',
    "[auth]\nsecret = {}\n",
    "<db><pass>{}</pass></db>",
    '<add key="ClientSecret" value="{}" />',
    "define('AUTH_KEY', '{}');",
    "$cfg['Servers'][$i]['password'] = '{}';",
    'props.setProperty("mail.smtp.password", "{}");',
    "CREATE USER 'app'@'%' IDENTIFIED BY '{}';",
    "ALTER ROLE app WITH PASSWORD '{}';",
    "sqlcmd -S db -U sa -P {} -Q 'select 1'",
    "ldapsearch -x -D cn=admin -w {} -b dc=ex",
    "openssl rsa -in k.pem -passout pass:{}",
    "keytool -list -keystore a.jks -storepass {}",
    "7z x backup.7z -p{}",
    "smbclient //nas/share -U admin%{}",
    "Cookie: session={}; theme=dark",
    "X-Api-Key: {}",
]


@pytest.mark.parametrize("template", ASSIGNMENTS)
def test_secret_named_assignments_are_redacted_by_the_assignment_layer_alone(template: str) -> None:
    secret = password() + rand(ALNUM, 8)
    assert_gone(secret, template.format(secret), only("assignment"))


@pytest.mark.parametrize(
    "text",
    [
        "token_type: Bearer",
        "session_timeout: 3600",
        "key_file: /etc/ssl/private/server.key",
        "DB_PASSWORD_FILE=/run/secrets/db_password",
        "signing_algorithm: RS256",
        "password: {{ .Values.db.password }}",
        "password = request.form['password']",
        "docker run -p 8080:80 -w /app node",
        "ssh -p 2222 admin@host",
        "grep -P '\\d{4}' log.txt",
        "SELECT id FROM users WHERE password_hash = $1",
        "ALTER USER app WITH PASSWORD NULL;",
        "key: value",
    ],
)
def test_settings_about_secrets_are_kept(text: str) -> None:
    assert_kept(text)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("DB_PASS", "password"),
        ("adminPw", "password"),
        ("mysqlpwd", "password"),
        ("signingSecret", "token"),
        ("X-API-Key", "token"),
        ("PHPSESSID", "token"),
        ("PrivateKey", "token"),
        ("pin", "pin"),
        ("password_min_length", None),
        ("token_ttl", None),
        ("bypass", None),
        ("monkey", None),
        ("key", None),
        ("tokenizer_name", None),
    ],
)
def test_a_name_is_read_by_its_last_morpheme(name: str, kind: str | None) -> None:
    assert secret_name(name) == kind


# --- unlabelled tokens --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "token",
    [
        "nfp_" + rand(ALNUM, 36),
        "tskey-auth-k" + rand(ALNUM, 16) + "-" + rand(ALNUM, 33),
        rand(string.ascii_lowercase + "234567", 52),
        "dt0c01." + rand(string.ascii_uppercase + "0123456789", 24) + "." + rand(ALNUM, 64),
        "0x" + rand("0123456789abcdef", 64),
    ],
)
def test_unlabelled_machine_made_tokens_are_redacted_by_the_entropy_layer_alone(token: str) -> None:
    assert_gone(token, f"ran the sync with {token} and it worked", only("entropy"))


def _bitcoin_address() -> str:
    import hashlib

    payload = b"\0" + RNG.randbytes(20)
    data = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    number, out = int.from_bytes(data, "big"), ""
    alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    while number:
        number, rest = divmod(number, 58)
        out = alphabet[rest] + out
    return "1" + out


@pytest.mark.parametrize(
    "text",
    [
        "request 123e4567-e89b-12d3-a456-426614174000 failed",
        "commit " + rand("0123456789abcdef", 40),
        "Digest: sha256:" + rand("0123456789abcdef", 64),
        rand("0123456789abcdef", 64) + "  dist/app-1.2.3.tar.gz",
        '"integrity": "sha512-' + rand(ALNUM + "+/", 86) + '=="',
        "icon data:image/png;base64," + base64.b64encode(b"\x89PNG\r\n\x1a\n" + RNG.randbytes(90)).decode(),
        '{"thumbnail": "' + base64.b64encode(b"\xff\xd8\xff\xe0" + RNG.randbytes(90)).decode() + '"}',
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + rand(ALNUM, 43) + " jane@laptop",
        "donations: " + _bitcoin_address(),
        "send to 0x" + rand("0123456789abcdef", 40),
        "bcrypt: $2b$12$" + rand(ALNUM + "./", 53),
        "123456789012-" + rand("abcdefghijklmnopqrstuvwxyz0123456789", 32) + ".apps.googleusercontent.com",
        "https://docs.google.com/document/d/" + rand(ALNUM + "-_", 44) + "/edit",
        "-----BEGIN CERTIFICATE-----\n" + rand(ALNUM, 64) + "\n-----END CERTIFICATE-----",
        "AbstractSingletonProxyFactoryBean and numpy-1.26.4-cp311-cp311-manylinux_2_17_x86_64.whl",
    ],
)
def test_random_looking_identifiers_with_a_principled_allowance_are_kept(text: str) -> None:
    assert_kept(text)


def test_base58check_tells_addresses_from_keys() -> None:
    address = _bitcoin_address()
    assert is_address(address)
    assert decode_check(address[:-1] + ("2" if address[-1] != "2" else "3")) is None


# --- decode and rescan ----------------------------------------------------------------------------------


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize(
    "wrap",
    [
        lambda s: '{"auths": {"ghcr.io": {"registry_login": "' + _b64("ci:" + s) + '"}}}',
        lambda s: "data:\n  DATABASE_URL: " + _b64(f"postgres://app:{s}@db:5432/app"),
        lambda s: "echo " + _b64("DB_PASSWORD=" + s) + " | base64 -d",
        lambda s: "body=" + "%7B%22password%22%3A%22" + s + "%22%7D",
        lambda s: '{"raw":"{\\"db\\":{\\"password\\":\\"' + s + '\\"}}"}',
    ],
)
def test_wrapped_secrets_are_decoded_and_rescanned(wrap: object) -> None:
    secret = password()
    text = wrap(secret)  # type: ignore[operator]
    scrubbed = scrub_credentials(text, frozenset({"decode", "rules", "assignment", "placeholders"})).text
    assert "[REDACTED:" in scrubbed
    assert _b64("ci:" + secret) not in scrubbed and secret not in scrubbed


def test_kubeconfig_key_data_goes_and_certificate_data_stays() -> None:
    pem = "-----BEGIN EC " + "PRIVATE KEY-----\n" + rand(ALNUM, 64) + "\n-----END EC " + "PRIVATE KEY-----\n"
    cert = _b64("-----BEGIN CERTIFICATE-----\n" + rand(ALNUM, 64) + "\n-----END CERTIFICATE-----\n")
    key = _b64(pem)
    text = f"    client-certificate-data: {cert}\n    client-key-data: {key}\n"
    scrubbed = scrub_credentials(text).text
    assert cert in scrubbed and key not in scrubbed


# --- key blocks, wallets, seed phrases --------------------------------------------------------------------


def test_key_files_that_are_not_pem_are_redacted_by_the_blocks_layer_alone() -> None:
    body = "\n".join(rand(ALNUM + "+/", 64) for _ in range(4))
    putty = f"PuTTY-User-Key-File-3: ssh-ed25519\nPublic-Lines: 2\nAAAA\nPrivate-Lines: 4\n{body}\nPrivate-MAC: ab12"
    assert_gone(body.splitlines()[2], putty, only("blocks"))
    static = "\n".join(rand("0123456789abcdef", 32) for _ in range(16))
    openvpn = f"-----BEGIN OpenVPN Static key V1-----\n{static}\n-----END OpenVPN Static key V1-----"
    assert_gone(static.splitlines()[5], openvpn, only("blocks"))
    keypair = json.dumps(list(RNG.randbytes(64)))
    assert_gone(keypair, f"cat id.json\n{keypair}", only("blocks"))


@pytest.mark.parametrize("language", ["english", "spanish", "japanese", "czech"])
def test_seed_phrases_in_any_shipped_language_are_redacted(language: str) -> None:
    phrase = Mnemonic(language).to_mnemonic(RNG.randbytes(16)).replace("\u3000", " ")
    scrubbed = assert_gone(phrase, f"my recovery phrase is {phrase} (stored offline)", only("blocks"))
    assert scrubbed.endswith(" (stored offline)")


def test_a_numbered_seed_phrase_is_one_redaction() -> None:
    words = Mnemonic("english").to_mnemonic(RNG.randbytes(32)).split()
    listed = "\n".join(f"{n}. {word}" for n, word in enumerate(words, 1))
    scrubbed = scrub_credentials(f"wallet backup\n{listed}\n", only("blocks"))
    assert [r.count for r in scrubbed.redactions] == [1]
    assert not any(word in scrubbed.text.split() for word in words[1:])


def test_prose_of_list_words_is_no_seed_phrase() -> None:
    assert_kept("abandon ship was the order, and the crew moved to the boats in silence after dinner")


# --- placeholders and masks ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "OPENAI_API_KEY=sk-...your-key-here...",
        "GITHUB_TOKEN=ghp_" + "x" * 36,
        '"password": "********"',
        "token: sk-****" + rand(ALNUM, 4),
        "password = 'your_password_here'",
        "API_KEY=<your-api-key>",
        "api_key: ${{ secrets.API_KEY }}",
    ],
)
def test_placeholders_and_masks_are_kept(text: str) -> None:
    assert_kept(text)


def test_shapes() -> None:
    assert is_placeholder("ghp_xxxxxxxxxxxx") and is_placeholder("••••••") and is_placeholder("sk-...")
    assert not is_placeholder(machine())
    assert is_password_like("hunter2!") and not is_password_like("case-sensitive") and not is_password_like("3600")
    assert looks_random(machine()) and not looks_random("PasswordResetTokenGeneratorFactory")


# --- the layers as a whole ---------------------------------------------------------------------------------


def test_every_layer_can_be_switched_off() -> None:
    text = "DB_PASS=" + password()
    assert scrub_credentials(text, frozenset()).text == text
    assert set(LAYERS) == set(ALL_LAYERS)


def test_every_rule_needle_is_in_every_match_the_rule_makes() -> None:
    texts = [
        json.loads(line)["text"]
        for name in ("corpus.jsonl", "dev.jsonl")
        for line in (CORPORA / name).read_text(encoding="utf-8").splitlines()
    ]
    for rule in credential_rules():
        if not rule.needles:
            continue
        for text in texts:
            for match in rule.pattern.finditer(text):
                assert any(needle in match.group().lower() for needle in rule.needles), (rule.kind, match.group())


def test_every_rule_anchor_is_in_every_match_the_rule_makes() -> None:
    texts = [
        json.loads(line)["text"]
        for name in ("corpus.jsonl", "dev.jsonl", "heldout.jsonl")
        for line in (CORPORA / name).read_text(encoding="utf-8").splitlines()
    ]
    anchored = [rule for rule in credential_rules() if rule.anchor is not None]
    assert anchored
    matched = set()
    for rule in anchored:
        assert rule.anchor is not None
        # Searched inside each match alone, so a lookaround could see what the match does not hold.
        assert not any(look in rule.anchor.pattern for look in ("(?=", "(?!", "(?<")), rule.kind
        assert rule.anchor.flags == rule.anchor.flags & ~(re.IGNORECASE | re.MULTILINE | re.DOTALL), rule.kind
        for text in texts:
            for match in rule.pattern.finditer(text):
                matched.add(rule.kind)
                assert rule.anchor.search(prefilter_form(match.group())), (rule.kind, match.group())
    assert matched == {rule.kind for rule in anchored}  # each anchor was put to the test


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("\u017fecret={}", password()),  # long s: IGNORECASE reads it as "s", lower() leaves it as it is
        ("db_pa\u017f\u017fword: {}", password()),
        ("my p\u0131n is {}", "48213"),  # dotless i
    ],
)
def test_letters_that_lower_case_leaves_alone_do_not_hide_a_rule(text: str, secret: str) -> None:
    assert_gone(secret, text.format(secret), frozenset({"rules", "placeholders"}))


def test_prefilter_form_reads_dotless_i_and_long_s_as_ascii() -> None:
    assert prefilter_form("PA\u017f\u017fWORD \u0131D") == "password id"


def test_scrubbing_the_dev_corpus_twice_changes_nothing_more() -> None:
    for line in (CORPORA / "dev.jsonl").read_text(encoding="utf-8").splitlines():
        once = scrub_credentials(json.loads(line)["text"])
        assert scrub_credentials(once.text).text == once.text
