"""Settings come in typed groups, read from the environment and checked when read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.processes import REPO

from hippograph.cli.serve import share_the_interpreter
from hippograph.kernel.config import Settings, SettingsError


def test_each_group_reads_its_variables() -> None:
    settings = Settings.from_env(
        {
            "HIPPOGRAPH_PORT": "9001",
            "HIPPOGRAPH_DATA_DIR": "/srv/memory",
            "NEO4J_URI": "bolt://db:7687",
            "HIPPOGRAPH_EMBEDDING_BATCH_SIZE": "16",
            "HIPPOGRAPH_CONSOLIDATION_BATCH": "7",
            "HIPPOGRAPH_RRF_K": "9",
            "HIPPOGRAPH_ACTIVATION_DECAY": "0.5",
            "HIPPOGRAPH_GRAPH_PROPAGATION": "spreading",
            "HIPPOGRAPH_GRAPH_CONCEPTS": "false",
            "HIPPOGRAPH_RECOVER_WINDOW_DAYS": "3",
            "HIPPOGRAPH_MAX_BATCH": "12",
            "HIPPOGRAPH_ALLOWED_HOSTS": "memory.example, localhost",
            "HIPPOGRAPH_UNRELATED": "ignored",
        }
    )
    assert settings.server.port == 9001
    assert settings.store.data_dir == Path("/srv/memory")
    assert settings.store.neo4j_uri == "bolt://db:7687" and not settings.store.embedded
    assert settings.models.embedding_batch_size == 16
    assert settings.consolidation.batch == 7
    assert settings.recall.rrf_k == 9
    assert settings.recall.activation.decay == 0.5
    assert settings.recall.graph.propagation == "spreading"
    assert settings.recall.graph.concepts is False
    assert settings.lifecycle.recover_window_days == 3.0
    assert settings.limits.max_batch == 12
    assert settings.access.allowed_hosts == ("memory.example", "localhost")
    # What was not set keeps its default.
    assert settings.recall.graph.damping == Settings().recall.graph.damping


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("HIPPOGRAPH_PORT", "70000"),
        ("HIPPOGRAPH_PORT", "eighty"),
        ("HIPPOGRAPH_CONSOLIDATION_BATCH", "0"),
        ("HIPPOGRAPH_GRAPH_PROPAGATION", "bfs"),
        ("HIPPOGRAPH_GRAPH_DAMPING", "1.5"),
        ("HIPPOGRAPH_GRAPH_CONCEPTS", "maybe"),
        ("HIPPOGRAPH_ACTIVATION_DECAY", "-1"),
        ("HIPPOGRAPH_RATE_PER_S", "0"),
        ("HIPPOGRAPH_MAX_BATCH", "-3"),
        ("HIPPOGRAPH_GIL_SWITCH_INTERVAL_MS", "0"),
    ],
)
def test_a_bad_value_fails_when_read_naming_its_variable(variable: str, value: str) -> None:
    with pytest.raises(SettingsError) as error:
        Settings.from_env({variable: value})
    assert str(error.value).startswith(f"{variable}: ")
    assert repr(value) in str(error.value)


def test_a_server_hands_the_interpreter_round_as_configured() -> None:
    before = sys.getswitchinterval()
    try:
        share_the_interpreter(Settings.from_env({"HIPPOGRAPH_GIL_SWITCH_INTERVAL_MS": "0.5"}))
        assert sys.getswitchinterval() == pytest.approx(0.0005)
        share_the_interpreter(Settings())
        assert sys.getswitchinterval() == pytest.approx(Settings().server.gil_switch_interval_ms / 1000)
    finally:
        sys.setswitchinterval(before)


def test_overrides_name_settings_as_the_environment_does() -> None:
    settings = Settings().with_overrides(data_dir=Path("x"), consolidation_processes=0, graph_hops=2, host=None)
    assert (settings.store.data_dir, settings.consolidation.processes, settings.recall.graph.hops) == (Path("x"), 0, 2)
    assert settings.server.host == Settings().server.host
    with pytest.raises(SettingsError, match="unknown settings: consolidation_procesess"):
        Settings().with_overrides(consolidation_procesess=0)
    with pytest.raises(SettingsError, match="graph_hops"):
        Settings().with_overrides(graph_hops=3)


@pytest.mark.process
def test_a_command_with_a_bad_setting_says_so_in_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "HIPPOGRAPH_CONSOLIDATION_LEASE_S": "soon"}
    done = subprocess.run(
        [sys.executable, "-m", "hippograph.cli", "status", "--data-dir", str(tmp_path / "store")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        (
            "hippograph status: HIPPOGRAPH_CONSOLIDATION_LEASE_S: "
            "Input should be a valid number, unable to parse string as a number (got 'soon')"
        )
    ]
    assert not (tmp_path / "store").exists()
