"""Checks shared by the kubeadm spec tests: the output passes the target API's field rules."""

from __future__ import annotations

import yaml

import k8smigrate
from k8smigrate.settings import Settings
from tests.helpers import codes


def validate_kubeadm(text: str, target: str) -> None:
    """Every kubeadm document is on a known field set (strict check) and its args are string lists."""
    again = k8smigrate.migrate_text(text, settings=Settings(target_version=target, strict=True))
    assert "K8SM-KADM-020" not in codes(again), [f.message for f in again.findings]
    for doc in yaml.safe_load_all(text):
        if not isinstance(doc, dict) or doc.get("apiVersion") != "kubeadm.k8s.io/v1beta4":
            continue
        sections = [doc.get(k) or {} for k in ("apiServer", "controllerManager", "scheduler")]
        sections += [(doc.get("etcd") or {}).get("local") or {}]
        args = [s.get("extraArgs") for s in sections]
        args.append((doc.get("nodeRegistration") or {}).get("kubeletExtraArgs"))
        for value in args:
            if value is None:
                continue
            assert isinstance(value, list)
            assert all(set(a) == {"name", "value"} and isinstance(a["value"], str) for a in value)
            assert value == sorted(value, key=lambda a: (a["name"], a["value"]))
