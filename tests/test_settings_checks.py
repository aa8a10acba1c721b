"""Spec: the library checks a run's settings exactly as the CLI does (``registry.check_settings``)."""

from __future__ import annotations

from pathlib import Path

import pytest

import k8smigrate
from k8smigrate.decisions import Decision
from k8smigrate.registry import check_settings, default_registry
from k8smigrate.settings import Settings, SettingsError

TEXT = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n"


def test_good_settings_pass() -> None:
    check_settings(
        Settings(only=("ingress_networking_v1beta1",), decisions={"crdPreserve": "root"}), default_registry()
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"only": ["ingres_typo"]}, "unknown migration 'ingres_typo'"),
        ({"skip": ["nope"]}, "unknown migration 'nope'"),
        ({"decisions": {"sideEfects": "None"}}, "unknown decision 'sideEfects'"),
        ({"decisions": {"sideEffects": "Maybe"}}, "--set sideEffects=Maybe: not one of None | NoneOnDryRun"),
        ({"target_version": "1.20", "min_version": "1.22"}, "newer than --target-version"),
        ({"target_version": "one"}, "not a Kubernetes version"),
    ],
)
def test_migrate_text_refuses_what_the_cli_refuses(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SettingsError, match=message.replace("|", r"\|")):
        k8smigrate.migrate_text(TEXT, **kwargs)  # type: ignore[arg-type]


def test_every_library_entry_point_checks(tmp_path: Path) -> None:
    bad = Settings(only=("ingres_typo",))
    path = tmp_path / "a.yaml"
    path.write_text(TEXT)
    for call in (
        lambda: k8smigrate.scan_text(TEXT, settings=bad),
        lambda: k8smigrate.migrate_file(path, settings=bad),
        lambda: k8smigrate.scan_file(path, settings=bad),
        lambda: list(k8smigrate.migrate_paths([path], settings=bad)),
    ):
        with pytest.raises(SettingsError, match="unknown migration"):
            call()


def test_a_decision_is_validated_once_where_it_is_declared() -> None:
    with pytest.raises(ValueError, match="default 'x' is not one of"):
        Decision("mode", ("a", "b"), "help", default="x")
    with pytest.raises(ValueError, match="allows no value"):
        Decision("mode", (), "help")
