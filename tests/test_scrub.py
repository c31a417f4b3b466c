"""Credential scrubbing: known formats are redacted, their context and ordinary text are kept.

Every secret here is fake and assembled from pieces at run time, so the repository itself gives
secret scanners nothing to find. The property tests draw secrets from the benchmark's generator
(bench/secrets/generate.py), which builds random bodies of each published format.
"""

from __future__ import annotations

import random
import re
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.hostile import GENERATOR, NEGATIVE_NAMES, PROPERTY_SETTINGS, surviving_windows, texts_with_secrets

from hippograph.kernel.model import Redaction
from hippograph.kernel.rules import load_rules
from hippograph.kernel.text.scrub import CredentialRule, Scrubbed, credential_rules, marker, scrub_credentials

ALNUM = "a1B2c3D4e5F6g7H8i9J0"  # 20 mixed characters to build key bodies from
HEX = "0123456789abcdef"


def _b64url(length: int) -> str:
    return ((ALNUM + "-_") * (length // 22 + 1))[:length]


JWT = "eyJ" + "hbGciOiJIUzI1NiJ9" + "." + "eyJ" + "zdWIiOiIxMjM0NTY3ODkwIn0" + "." + _b64url(43)
PEM = "\n".join(
    [
        "-----BEGIN RSA " + "PRIVATE KEY-----",
        "MIIEow" + ALNUM * 3,
        ALNUM * 3 + "==",
        "-----END RSA " + "PRIVATE KEY-----",
    ]
)

# (kind, secret as it appears, text around it with {} where it goes)
CASES = [
    ("private_key", PEM, "deploy key:\n{}\nkeep it safe"),
    ("jwt", JWT, "session cookie {} expired"),
    ("anthropic_key", "sk-" + "ant-api03-" + _b64url(93), "export KEY {} now"),
    ("openai_key", "sk-" + "A" * 48, "the key {} works"),
    ("openai_key", "sk-" + "proj-" + _b64url(64), "new key {} issued"),
    ("github_token", "gh" + "p_" + ALNUM * 2 + "abcdefghijklmnop", "pushed with {} today"),
    ("github_token", "github" + "_pat_" + ALNUM + "_" + ALNUM * 3, "fine-grained {} made"),
    ("gitlab_token", "gl" + "pat-" + ALNUM, "runner uses {} for CI"),
    ("slack_token", "xo" + "xb-" + "1234567890-0987654321-" + ALNUM, "bot token {} rotated"),
    ("stripe_key", "sk" + "_live_" + ALNUM * 2, "charge with {} please"),
    ("aws_access_key", "AK" + "IA" + "IOSFODNN7EXAMPL2", "access key id {} belongs to ci"),
    ("google_api_key", "AI" + "za" + "Sy" + _b64url(33), "maps key {} in app"),
    ("hf_token", "h" + "f_" + ALNUM + "abcdefghijklmnop", "download with {} later"),
    ("npm_token", "np" + "m_" + ALNUM + "abcdefghijklmnop", "publish using {} on release"),
    ("pypi_token", "py" + "pi-" + "AgEIcHlwaS5vcmc" + _b64url(70), "upload via {} done"),
    ("sendgrid_key", "S" + "G." + _b64url(22) + "." + _b64url(43), "mail key {} set"),
    ("gitlab_token", "gl" + "dt-" + ALNUM, "deploy token {} for the mirror"),
    ("slack_token", "xo" + "xe.xoxp-1-" + ALNUM * 3, "config token {} expires"),
    ("google_oauth_client_secret", "GOC" + "SPX-" + _b64url(28), "oauth client {} set"),
    ("dockerhub_token", "dckr" + "_pat_" + _b64url(27), "docker login with {}"),
    ("heroku_api_key", "HR" + "KU-AA" + _b64url(58), "heroku key {} here"),
    ("digitalocean_token", "do" + "p_v1_" + HEX * 4, "doctl uses {} now"),
    ("shopify_token", "shp" + "at_" + HEX * 2, "admin api {} works"),
    ("square_token", "EA" + "AA" + _b64url(60), "square token {} in prod"),
    ("mailgun_key", "ke" + "y-" + HEX * 2, "mailgun {} set"),
    ("telegram_bot_token", "123456789" + ":A" + "A" + _b64url(33), "bot {} replies"),
    ("discord_bot_token", "MTA" + _b64url(21) + "." + _b64url(6) + "." + _b64url(27), "discord bot {} online"),
    ("vault_token", "hv" + "s." + _b64url(90), "vault gave {} today"),
    ("hippograph_key", "hg" + "k_" + "abcdef234567" + "_" + _b64url(43), "agent key {} issued"),
    ("twilio_sid", "S" + "K" + HEX * 2, "api key sid {} created"),
    ("azure_client_secret", "abc" + "1Q~" + _b64url(34), "app secret {} expires"),
    ("age_secret_key", "AGE-" + "SECRET-KEY-1" + ("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L" * 2)[:58], "identity {} here"),
]

# (kind, text containing a secret, the same text as it must come out)
CONTEXT_CASES = [
    ("password_assignment", "login with password=hunter2 ok", "login with password=[REDACTED:password_assignment] ok"),
    ("password_assignment", "DB_PASSWORD: s3cr3t!", "DB_PASSWORD: [REDACTED:password_assignment]"),
    (
        "password_assignment",
        '{"passphrase": "correct horse battery staple"}',
        '{"passphrase": "[REDACTED:password_assignment]"}',
    ),
    (
        "password_assignment",
        "Server=db;User Id=sa;Password=Pa55w0rd;Encrypt=true",
        "Server=db;User Id=sa;Password=[REDACTED:password_assignment];Encrypt=true",
    ),
    (
        "url_credentials",
        "connect to https://user:pw@host.example.com/db now",
        "connect to https://[REDACTED:url_credentials]@host.example.com/db now",
    ),
    (
        "url_credentials",
        "redis://:p@ss@cache:6379/0",
        "redis://[REDACTED:url_credentials]@cache:6379/0",
    ),
    (
        "bearer_token",
        "curl -H 'Authorization: Bearer abc123def456ghi789' https://api",
        "curl -H 'Authorization: Bearer [REDACTED:bearer_token]' https://api",
    ),
    (
        "basic_auth",
        "Authorization: Basic dXNlcjpwYXNzd29yZA==",
        "Authorization: Basic [REDACTED:basic_auth]",
    ),
    (
        "aws_secret_key",
        "aws_secret_access_key = " + "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY",
        "aws_secret_access_key = [REDACTED:aws_secret_key]",
    ),
    (
        "generic_api_key_assignment",
        'config: {"client_secret": "q8Zr2LmX9vTb4Kp1"}',
        'config: {"client_secret": "[REDACTED:generic_api_key_assignment]"}',
    ),
    (
        "generic_api_key_assignment",
        "WEATHER_API_KEY=4f9a2c71e0b3d8aa",
        "WEATHER_API_KEY=[REDACTED:generic_api_key_assignment]",
    ),
    (
        "slack_webhook",
        "post to https://hooks.slack.com/services/T0000/B0000/" + ALNUM,
        "post to https://hooks.slack.com/services/[REDACTED:slack_webhook]",
    ),
    (
        "aws_secret_key",
        "aws configure set aws_secret_access_key " + "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY",
        "aws configure set aws_secret_access_key [REDACTED:aws_secret_key]",
    ),
    (
        "aws_secret_key",
        '{"SecretAccessKey": "' + "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + 'EXAMPLEKEY"}',
        '{"SecretAccessKey": "[REDACTED:aws_secret_key]"}',
    ),
    ("datadog_key", "DD_API_KEY=" + HEX * 2, "DD_API_KEY=[REDACTED:datadog_key]"),
    (
        "heroku_api_key",
        "HEROKU_API_KEY=" + "123e4567-e89b-12d3-a456-426614174000",
        "HEROKU_API_KEY=[REDACTED:heroku_api_key]",
    ),
    ("vault_token", "VAULT_TOKEN=s." + ALNUM + "abcd", "VAULT_TOKEN=[REDACTED:vault_token]"),
    ("twilio_auth_token", "TWILIO_AUTH_TOKEN=" + HEX * 2, "TWILIO_AUTH_TOKEN=[REDACTED:twilio_auth_token]"),
    (
        "azure_key",
        "AccountName=acct;AccountKey=" + ALNUM * 4 + "==;EndpointSuffix=core.windows.net",
        "AccountName=acct;AccountKey=[REDACTED:azure_key];EndpointSuffix=core.windows.net",
    ),
    (
        "url_signature",
        "https://acct.blob.core.windows.net/c/f?sv=2022-11-02&se=2026-12-31&sig=" + ALNUM + "%2B" + ALNUM + "%3D&sp=r",
        "https://acct.blob.core.windows.net/c/f?sv=2022-11-02&se=2026-12-31&sig=[REDACTED:url_signature]&sp=r",
    ),
    # In an Authorization header a bearer token needs no digit; in prose it does (INNOCENT below).
    ("bearer_token", "Authorization: Bearer abcdefghijklmnopqrstuv", "Authorization: Bearer [REDACTED:bearer_token]"),
    ("authorization_token", "Authorization: Token " + HEX * 2, "Authorization: Token [REDACTED:authorization_token]"),
    ("cli_password", "mysql -u root -p" + "S3cr3t!x app", "mysql -u root -p[REDACTED:cli_password] app"),
    ("cli_password", "curl -u admin:" + "pa55-word https://x", "curl -u admin:[REDACTED:cli_password] https://x"),
    (
        "netrc_password",
        "machine example.com login me password " + "pa55word",
        "machine example.com login me password [REDACTED:netrc_password]",
    ),
    ("password_assignment", "PGPASSWORD=" + "pa55word psql", "PGPASSWORD=[REDACTED:password_assignment] psql"),
    ("password_assignment", "password: hunter\nuser: x", "password: [REDACTED:password_assignment]\nuser: x"),
    ("prose_secret", "the password is hunter2-Blue!", "the password is [REDACTED:prose_secret]"),
    ("prose_secret", "my pin is 4821.", "my pin is [REDACTED:prose_secret]."),
    ("prose_secret", "the API key is " + ALNUM, "the API key is [REDACTED:prose_secret]"),
]

INNOCENT = [
    "my password is long and nobody knows it",
    "Reset your password via the settings page.",
    "fixed in commit " + HEX * 2 + "01234567",  # a bare 40-hex sha
    "request id 123e4567-e89b-12d3-a456-426614174000 failed",  # a UUID
    "we use sk-learn-compatible-estimators here",
    "max_tokens: 4096 and temperature=0.2",
    "The secret: patience.",
    "he was the bearer of bad-news-and-worse-news",
    "clone git@github.com:org/repo.git or ssh://git@github.com/org/repo",
    "if password == expected: return True",
    "the secret is patience",
    "your password is case-sensitive and at least 12 characters long",
    "Password: see the wiki entry for prod",
    "def login(password: str) -> None:",
    "password = getpass.getpass()",
    "api_key = settings.OPENAI_API_KEY",
    "password: ${DB_PASSWORD}",
    "Authorization: Bearer <token>",
    "docker run -u 1000:1000 -p 8080:80 app",
    "mysql -u root -p",
    "pull image@sha256:" + HEX * 4,
    "icon data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk" + ALNUM,
    "upgrade to v2.14.0-rc.1 today",
    "postgres://db.internal:5432/app and https://user@host.example.com/",
    "the bearer token " + "abc" + "def" + " is weak",  # prose: no digit, too short
]


@pytest.mark.parametrize(("kind", "secret", "template"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_known_formats_are_redacted_in_place(kind: str, secret: str, template: str) -> None:
    scrubbed = scrub_credentials(template.format(secret))
    assert scrubbed.text == template.format(marker(kind))
    assert scrubbed.redactions == (Redaction(kind, 1),)


@pytest.mark.parametrize(("kind", "text", "expected"), CONTEXT_CASES, ids=[c[0] for c in CONTEXT_CASES])
def test_context_rules_keep_the_non_secret_part(kind: str, text: str, expected: str) -> None:
    scrubbed = scrub_credentials(text)
    assert scrubbed.text == expected
    assert scrubbed.redactions == (Redaction(kind, 1),)


@pytest.mark.parametrize("text", INNOCENT)
def test_ordinary_text_is_untouched(text: str) -> None:
    assert scrub_credentials(text) == Scrubbed(text, ())


def test_counts_are_aggregated_per_kind_in_rule_order() -> None:
    openai = "sk-" + "B" * 48
    text = f"password=one {openai} and password=two and {openai}; also {JWT}"
    scrubbed = scrub_credentials(text)
    assert scrubbed.redactions == (
        Redaction("jwt", 1),
        Redaction("openai_key", 2),
        Redaction("password_assignment", 2),
    )
    assert openai not in scrubbed.text and "one" not in scrubbed.text


def test_a_marker_is_never_rewritten_by_a_later_rule() -> None:
    text = "OPENAI_API_KEY=" + "sk-" + "C" * 48 + " password=" + "sk-" + "D" * 48
    scrubbed = scrub_credentials(text)
    assert scrubbed.text == "OPENAI_API_KEY=[REDACTED:openai_key] password=[REDACTED:openai_key]"
    assert scrubbed.redactions == (Redaction("openai_key", 2),)


def test_an_unterminated_private_key_is_redacted_to_the_end() -> None:
    scrubbed = scrub_credentials("here:\n-----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3BlbnNzaC1rZXk" + ALNUM)
    assert scrubbed.text == "here:\n[REDACTED:private_key]"


def test_words_in_a_formats_own_prefix_do_not_make_it_a_stand_in() -> None:
    # SECRET and KEY are stand-in words ("your-secret-key"); in AGE-SECRET-KEY-1 they name the
    # format, and a body with few digits does not look random to the generic layers.
    key = "AGE-SECRET-KEY-1SJTWFWTGYDJPMGQ3F9SUMGSKWLMHM58KSUGUUTJVTKSHAS3EGL00VHGYMA"
    assert scrub_credentials(f"identity: {key}").text == "identity: [REDACTED:age_secret_key]"
    # A mask after the prefix still is one.
    mask = "ghp_" + "x" * 36
    assert scrub_credentials(f"token {mask}") == Scrubbed(f"token {mask}", ())


def test_scrubbing_is_idempotent() -> None:
    text = "\n".join(template.format(secret) for _, secret, template in CASES)
    text += "\n" + "\n".join(original for _, original, _ in CONTEXT_CASES)
    once = scrub_credentials(text)
    twice = scrub_credentials(once.text)
    assert twice.text == once.text
    assert twice.redactions == ()
    assert "[REDACTED:" in once.text


def test_the_rules_file_has_distinct_kinds() -> None:
    kinds = [rule["kind"] for rule in load_rules("credentials")["rules"]]
    assert len(kinds) == len(set(kinds)) >= 40


# --- properties over generated secrets -----------------------------------------------------------


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(texts_with_secrets())
def test_no_eight_characters_of_a_generated_secret_survive(sample: tuple[str, list[str]]) -> None:
    text, secrets = sample
    scrubbed = scrub_credentials(text).text
    for secret in secrets:
        assert not surviving_windows(secret, scrubbed), (secret, scrubbed)


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(texts_with_secrets(negatives=True))
def test_scrubbing_scrubbed_text_changes_nothing(sample: tuple[str, list[str]]) -> None:
    once = scrub_credentials(sample[0])
    assert scrub_credentials(once.text) == Scrubbed(once.text, ())


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(st.sampled_from(NEGATIVE_NAMES), st.integers())
def test_generated_look_alikes_are_untouched(name: str, seed: int) -> None:
    text = GENERATOR.NEGATIVES[name](random.Random(seed))
    assert scrub_credentials(text) == Scrubbed(text, ())


# --- no quadratic scans ---------------------------------------------------------------------------

SIXTY_FOUR_KIB = 64 * 1024
_CHARACTER_CLASS = re.compile(r"\[(?:\\.|[^\]\\])+\]")


def _alphabets(pattern: str) -> set[str]:
    """The printable ASCII members of each character class written in ``pattern``."""
    alphabets = set()
    for written in _CHARACTER_CLASS.findall(pattern):
        try:
            compiled = re.compile(written)
        except re.error:  # a "[" inside a class, cut short by this rough reading of the pattern
            continue
        members = "".join(char for char in string.printable if compiled.fullmatch(char))
        if members:
            alphabets.add(members)
    return alphabets


@pytest.mark.parametrize("rule", credential_rules(), ids=lambda rule: rule.kind)
def test_a_64_kib_run_of_each_rule_alphabet_completes(rule: CredentialRule) -> None:
    # No timing is asserted (the machines are shared); a rule that rescanned the run from every
    # position would take minutes here instead of milliseconds, and the suite would visibly stall.
    for alphabet in _alphabets(rule.pattern.pattern):
        for text in ((alphabet * (SIXTY_FOUR_KIB // len(alphabet) + 1))[:SIXTY_FOUR_KIB], alphabet[0] * SIXTY_FOUR_KIB):
            assert isinstance(rule.pattern.sub("", text), str)


# Context words repeated, or followed by a long run that never completes a secret.
ADVERSARIAL_PREFIXES = [
    "password=",
    "password: ",
    "the password is ",
    "my pin is ",
    "token=",
    "secret: ",
    "Authorization: Bearer ",
    "bearer ",
    "mysql -u ",
    "redis-cli -a",
    "-----BEGIN ",
    "https://a:",
    "sig=",
    "heroku_api_key=",
    "vault login ",
    "machine x login y ",
    "-u a:",
    "AccountKey=",
    "aws_secret_access_key ",
    "EAAA",
    "eyJ",
    "sk-",
    "@",
    ":",
    "=",
]


@pytest.mark.parametrize("prefix", ADVERSARIAL_PREFIXES)
def test_64_kib_of_repeated_context_completes(prefix: str) -> None:
    repeated = (prefix * (SIXTY_FOUR_KIB // len(prefix) + 1))[:SIXTY_FOUR_KIB]
    for text in (repeated, prefix + "a." * (SIXTY_FOUR_KIB // 2)):
        scrubbed = scrub_credentials(text)
        assert scrub_credentials(scrubbed.text).text == scrubbed.text
