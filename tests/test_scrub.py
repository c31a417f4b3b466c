"""Credential scrubbing: known formats are redacted, their context and ordinary text are kept.

Every secret here is fake and assembled from pieces at run time, so the repository itself gives
secret scanners nothing to find.
"""

from __future__ import annotations

import pytest

from hippograph.capture.scrub import Scrubbed, marker, scrub_credentials
from hippograph.model import Redaction
from hippograph.rules import load_rules

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
    assert len(kinds) == len(set(kinds)) >= 12
