"""Spec: facts of a whole run for the checks that join files (k8smigrate.facts, run_facts, the CLI with --jobs)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from k8smigrate import migrate_paths
from k8smigrate.api import facts_of_files, run_facts, scan_file
from k8smigrate.cli import app
from k8smigrate.facts import Collector, Facts, Object, StreamFacts, gather, gather_each, merge
from k8smigrate.parallel import SERIAL_BELOW, _facts_chunk, parallel_facts
from k8smigrate.settings import Settings
from tests.helpers import dedent

SEEN: list[str] = []


def _names(obj: Object) -> list[str]:
    SEEN.append(str(obj.name))
    return [f"{obj.kind}/{obj.name}"]


NAMES = Collector("names", ("Secret",), _names)

CONTROLLER = """
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ingress-nginx-controller
  namespace: ingress-nginx
spec:
  selector:
    matchLabels: {app: ingress-nginx}
  template:
    metadata:
      labels: {app: ingress-nginx}
    spec:
      containers:
      - name: controller
        image: registry.k8s.io/ingress-nginx/controller:v1.9.4
        args: [/nginx-ingress-controller, --ingress-class=nginx]
"""

INGRESS = """
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  defaultBackend:
    service:
      name: web
      port:
        number: 80
"""


def test_a_stream_without_the_trigger_is_not_read() -> None:
    SEEN.clear()
    facts = gather("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n", "a.yaml", [NAMES])
    assert facts.of(NAMES) == [] and facts.covers(NAMES) and SEEN == []


def test_a_stream_is_read_for_each_collector_whose_trigger_it_holds_word_or_pattern() -> None:
    # gather first looks for all the collectors' triggers at once: a pattern must count as
    # much as a word there, and a collector whose trigger is absent must still read nothing
    worded = Collector("worded", ("ConfigMap",), _names)
    patterned = Collector("patterned", (re.compile(r"kind:\s+Sec"),), _names)
    absent = Collector("absent", ("Namespace",), _names)
    secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n"
    SEEN.clear()
    facts = gather(secret, "s.yaml", [worded, patterned, absent])
    assert [v.value for v in facts.of(patterned)] == ["Secret/s"] and facts.of(worded) == facts.of(absent) == []
    assert facts.gathered == {"worded", "patterned", "absent"} and SEEN == ["s"]
    facts = gather(secret, "s.yaml", [absent])  # another set of collectors: asked for its own triggers
    assert facts.of(absent) == [] and facts.gathered == {"absent"}


def test_only_documents_with_the_trigger_are_read_and_list_items_keep_their_lines() -> None:
    SEEN.clear()
    text = dedent(
        """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: skipped}
        ---
        apiVersion: v1
        kind: List
        items:
        - apiVersion: v1
          kind: Secret
          metadata: {name: one}
        - apiVersion: v1
          kind: Secret
          metadata: {name: two}
        ---
        apiVersion: v1
        kind: Secret
        metadata: {name: {{ .Values.name }}}
        """
    )
    found = gather(text, "s.yaml", [NAMES]).of(NAMES)
    assert [(f.value, f.document, f.line) for f in found] == [("Secret/one", 1, 8), ("Secret/two", 1, 11)]
    assert SEEN == ["one", "two"]  # the templated document is not read
    assert found[0].where == "s.yaml:8"


def test_merge_keeps_the_input_order_and_a_run_wins_over_the_stream() -> None:
    a = gather("kind: Secret\nmetadata: {name: a}\n", "a.yaml", [NAMES])
    b = gather("kind: Secret\nmetadata: {name: b}\n", "b.yaml", [NAMES])
    run = merge([b, a])
    assert [f.value for f in run.of(NAMES)] == ["Secret/b", "Secret/a"]
    assert run.files == ["b.yaml", "a.yaml"]
    local = StreamFacts("kind: Secret\nmetadata: {name: mine}\n", "mine.yaml", run)
    assert [f.value for f in local(NAMES)] == ["Secret/b", "Secret/a"]
    alone = StreamFacts("kind: Secret\nmetadata: {name: mine}\n", "mine.yaml", Facts())
    assert [f.value for f in alone(NAMES)] == ["Secret/mine"]  # not gathered by the run: the stream's own


def test_gather_each_is_the_merge_of_gather_over_the_texts() -> None:
    texts = [
        ("a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"),
        ("b.yaml", "kind: Secret\nmetadata: {name: b}\n---\nkind: Secret\nmetadata: {name: c}\n"),
        ("gone.yaml", ""),  # what a run gives for a file it cannot read: covered, nothing found
        ("d.yaml", "kind: Secret\nmetadata: {name: d}\n"),
    ]
    each = gather_each(texts, [NAMES])
    assert each == merge(gather(text, name, [NAMES]) for name, text in texts)
    assert [f.value for f in each.of(NAMES)] == ["Secret/b", "Secret/c", "Secret/d"]
    assert gather_each([("gone.yaml", "")], [NAMES]).covers(NAMES)
    assert gather_each([], [NAMES]) == merge([]) == Facts()  # no file: nothing covered


def test_the_facts_of_files_cover_an_unreadable_one(tmp_path: Path) -> None:
    settings = Settings(target_version="1.29")
    facts = facts_of_files([tmp_path / "missing.yaml"], settings)
    assert facts.values == () and facts.gathered and facts == run_facts([tmp_path / "missing.yaml"], settings)


def tree(tmp_path: Path, files: int = 2) -> Path:
    (tmp_path / "controller").mkdir()
    (tmp_path / "apps").mkdir()
    (tmp_path / "controller" / "deploy.yaml").write_text(dedent(CONTROLLER), encoding="utf-8")
    for i in range(files - 1):
        (tmp_path / "apps" / f"web{i:02}.yaml").write_text(
            dedent(INGRESS).replace("web", f"web{i:02}"), encoding="utf-8"
        )
    return tmp_path


def test_migrate_paths_joins_the_files_of_the_run(tmp_path: Path) -> None:
    root = tree(tmp_path)
    outcomes = list(migrate_paths([root], settings=Settings(target_version="1.29")))
    (finding,) = [f for o in outcomes for f in o.findings]
    assert finding.code == "K8SM-CTL-003" and finding.filename.endswith("web00.yaml")
    assert f"{root / 'controller' / 'deploy.yaml'}:1" in finding.message
    # alone, the Ingress joins nothing
    assert scan_file(root / "apps" / "web00.yaml", settings=Settings(target_version="1.29")).scan == []


def test_the_facts_are_the_same_over_processes(tmp_path: Path) -> None:
    root = tree(tmp_path, SERIAL_BELOW + 4)
    files = sorted(root.rglob("*.yaml"))
    settings = Settings(target_version="1.29")
    assert parallel_facts(files, settings, 4, serial_bytes=0) == run_facts(files, settings)  # a pool, however small


def test_a_worker_sends_one_merged_facts_per_chunk(tmp_path: Path) -> None:
    # one per file (each with its own set of collector names) made the parent grow with the files
    root = tree(tmp_path, 6)
    files = sorted(root.rglob("*.yaml"))
    settings = Settings(target_version="1.29")
    sent = _facts_chunk((settings, files))
    assert isinstance(sent, Facts) and sent == run_facts(files, settings)


def test_scan_with_jobs_prints_what_a_serial_scan_prints(tmp_path: Path) -> None:
    root = tree(tmp_path, SERIAL_BELOW + 4)
    runner = CliRunner()
    serial = runner.invoke(app, ["scan", str(root), "--target-version", "1.29", "--jobs", "1"])
    parallel = runner.invoke(app, ["scan", str(root), "--target-version", "1.29", "--jobs", "3"])
    assert serial.stdout == parallel.stdout
    rows = serial.stdout.splitlines()
    assert len(rows) == SERIAL_BELOW + 3 and all("K8SM-CTL-003" in r and "deploy.yaml:1" in r for r in rows)
    assert all(" controller " in r for r in rows)


def test_the_collectors_a_text_holds_names_for_are_found_in_one_look_as_one_by_one() -> None:
    from k8smigrate.api import collectors_for
    from k8smigrate.facts import _union
    from k8smigrate.registry import default_registry
    from k8smigrate.yamlio.fastbuild import holds_which

    collectors = tuple(collectors_for(Settings(target_version="1.29"), default_registry()))
    assert len(collectors) > 3
    texts = [
        "kind: CustomResourceDefinition\nspec:\n  description: dns01 \u2014 a Secret, a Pod\n",  # wide
        "kind: ClusterRole\nmetadata:\n  name: system:coredns\n",
        "kind: ClusterRoleBinding\nmetadata:\n  name: dns\n",
        "kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - image: coredns/coredns:1.9.0\n",
        "kind: Deployment\nspec: {image: registry.k8s.io/ingress-nginx/controller:v1.9.0}\n",
        "kind: Secret\ntype: kubernetes.io/service-account-token\n",
        "kind: ConfigMap\ndata: {sysctl: net.ipv4.ip_local_port_range}\n",
        "nothing: here\n",
    ]
    for text in texts:
        present = frozenset(holds_which(text, _union(collectors)[2]))
        assert [c.name for c in collectors if c.wants_among(text, present)] == [
            c.name for c in collectors if c.wants(text)
        ], text
    assert any(c.wants(t) for t in texts for c in collectors)  # some text is wanted: the comparison can fail
