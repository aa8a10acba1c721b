#!/usr/bin/env python3
"""Benchmark k8smigrate against baselines measured in the same run, on generated repositories.

Builds, deterministically (seeded), two repositories in a temporary folder:

- realistic: about ``--docs`` documents (default 20,000, about 20 MB) of current-API
  Deployments, Services and ConfigMaps with comments, plus 10 % of documents drawn from the
  deprecated manifests of ``../shared/corpus`` (files without templates);
- deprecated: the same corpus manifests only, repeated to about ``--deprecated-mb`` MB.

Then times, side by side, each as a fresh process as a user runs it: ``k8smigrate scan``,
``k8smigrate apply --check``, ``k8smigrate apply --in-place`` on a copy, the naive ruamel.yaml
round trip (load and dump every document), and ``kpt fn source | kpt fn sink`` when ``kpt``
is on PATH. It prints MB/s, ratios against the baselines, how time grows from 1x to 4x the
realistic repository, and the peak memory of each process.

    python bench/run.py                 # the default sizes
    python bench/run.py --docs 2000     # a quick look
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "files"
DEPRECATED_APIS = (
    "extensions/v1beta1",
    "apps/v1beta1",
    "apps/v1beta2",
    "networking.k8s.io/v1beta1",
    "rbac.authorization.k8s.io/v1beta1",
    "apiextensions.k8s.io/v1beta1",
    "policy/v1beta1",
    "batch/v1beta1",
    "autoscaling/v2beta1",
    "autoscaling/v2beta2",
    "admissionregistration.k8s.io/v1beta1",
    "storage.k8s.io/v1beta1",
    "scheduling.k8s.io/v1beta1",
)

NAIVE = """
import sys, io
from pathlib import Path
from ruamel.yaml import YAML
yaml = YAML(typ="rt")
for path in sorted(Path(sys.argv[1]).rglob("*.yaml")):
    out = io.StringIO()
    yaml.dump_all(list(yaml.load_all(path.read_text())), out)
"""


def deployment(rng: random.Random, i: int) -> str:
    app = f"app-{i}"
    return f"""# {app}: generated for the benchmark
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {app}
  namespace: team-{i % 17}
  labels:
    app: {app}
    tier: "{rng.choice(["web", "api", "worker"])}"
spec:
  replicas: {rng.randint(1, 5)}
  selector:
    matchLabels:
      app: {app}
  template:
    metadata:
      labels:
        app: {app}
    spec:
      containers:
      - name: main
        image: registry.example.com/{app}:{rng.randint(1, 99)}.{rng.randint(0, 9)}
        ports:
        - containerPort: {rng.choice([80, 8080, 9090])}  # the only port
        resources:
          requests: {{cpu: 100m, memory: 128Mi}}
          limits: {{cpu: "1", memory: 512Mi}}
        env:
        - name: MODE
          value: "production"
"""


def service(rng: random.Random, i: int) -> str:
    return f"""apiVersion: v1
kind: Service
metadata:
  name: svc-{i}
  namespace: team-{i % 17}
spec:
  selector:
    app: app-{i}
  ports:
  - name: http
    port: 80
    targetPort: {rng.choice([80, 8080, 9090])}
"""


def configmap(rng: random.Random, i: int) -> str:
    lines = "\n".join(f"    key{j} = {rng.random():.6f}" for j in range(rng.randint(5, 20)))
    return f"""apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg-{i}
data:
  settings.ini: |
{lines}
"""


def deprecated_documents() -> list[str]:
    """Documents of the corpus that are on a deprecated API, from files without templates."""
    docs: list[str] = []
    for path in sorted(CORPUS.iterdir()):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "{{" in text or "{%" in text or not path.name.endswith((".yaml", ".yml")):
            continue
        for part in text.split("\n---\n"):
            if any(f"apiVersion: {api}\n" in part for api in DEPRECATED_APIS):
                docs.append(part.strip("\n") + "\n")
    return docs


def build_realistic(folder: Path, docs: int, seed: int, pool: list[str]) -> int:
    rng = random.Random(seed)
    makers = (deployment, service, configmap)
    written = 0
    i = 0
    while i < docs:
        chunk: list[str] = []
        for _ in range(rng.randint(1, 12)):
            if rng.random() < 0.10:
                chunk.append(rng.choice(pool))
            else:
                chunk.append(makers[i % 3](rng, i))
            i += 1
        path = folder / f"team-{i % 23}" / f"manifests-{i:06d}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = "---\n".join(chunk)
        path.write_text(text, encoding="utf-8")
        written += len(text.encode())
    return written


def build_deprecated(folder: Path, megabytes: float) -> int:
    files = [p for p in sorted(CORPUS.iterdir()) if p.name.endswith((".yaml", ".yml"))]
    files = [
        p for p in files if "{{" not in p.read_text(errors="replace") and "{%" not in p.read_text(errors="replace")
    ]
    written, copy = 0, 0
    while written < megabytes * 1e6:
        for p in files:
            target = folder / f"copy-{copy:03d}" / p.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, target)
            written += target.stat().st_size
        copy += 1
    return written


def timed(cmd: str, cwd: Path) -> tuple[float, float, int]:
    """Wall time, peak RSS in MB, exit code of one shell command (run in a fresh process).

    A small wrapper process runs the command and reports the peak of its own children, so
    each figure is that command's alone.
    """
    wrapper = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "out = subprocess.DEVNULL; "
        "rc = subprocess.run(sys.argv[1], shell=True, stdout=out, stderr=out).returncode; "
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)"
    )
    out = subprocess.run([sys.executable, "-c", wrapper, cmd], cwd=cwd, capture_output=True, text=True, check=True)
    seconds, peak_kb, code = out.stdout.split()
    return float(seconds), int(peak_kb) / 1024, int(code)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=20_000, help="documents in the realistic repository")
    ap.add_argument("--deprecated-mb", type=float, default=4.0, help="size of the fully deprecated repository")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=0, help="k8smigrate --jobs (0: all cores)")
    ap.add_argument("--target", default="1.29")
    ap.add_argument("--no-naive", action="store_true", help="skip the (slow) naive ruamel round trip")
    args = ap.parse_args()
    if not CORPUS.is_dir():
        print("the corpus (../shared/corpus) is needed to build the repositories", file=sys.stderr)
        return 2

    exe = shutil.which("k8smigrate") or str(Path(sys.executable).parent / "k8smigrate")
    py = sys.executable
    kpt = shutil.which("kpt")
    pool = deprecated_documents()
    flags = f"--target-version {args.target} --jobs {args.jobs} --color never"
    rows: list[tuple[str, str, float, float, float]] = []

    with tempfile.TemporaryDirectory(prefix="k8smigrate-bench-") as tmp:
        base = Path(tmp)
        sizes = {}
        for name, builder in (
            ("realistic", lambda d: build_realistic(d, args.docs, args.seed, pool)),
            ("realistic-4x", lambda d: build_realistic(d, args.docs * 4, args.seed, pool)),
            ("deprecated", lambda d: build_deprecated(d, args.deprecated_mb)),
        ):
            folder = base / name
            folder.mkdir()
            sizes[name] = builder(folder)

        def run(label: str, repo: str, cmd: str) -> float:
            seconds, peak, code = timed(cmd, base)
            mb = sizes[repo] / 1e6
            rows.append((repo, label, seconds, mb / seconds, peak))
            print(
                f"{repo:13} {label:24} {seconds:7.2f} s {mb / seconds:7.2f} MB/s  peak {peak:6.0f} MB  exit {code}",
                flush=True,
            )
            return seconds

        results: dict[tuple[str, str], float] = {}
        for repo in ("realistic", "deprecated", "realistic-4x"):
            results[(repo, "scan")] = run("k8smigrate scan", repo, f"{exe} scan {repo} {flags} --fail-on never")
            results[(repo, "check")] = run("k8smigrate apply --check", repo, f"{exe} apply --check {repo} {flags}")
            if repo == "realistic-4x":
                continue
            shutil.copytree(base / repo, base / f"{repo}-copy")
            results[(repo, "inplace")] = run("k8smigrate apply -i", repo, f"{exe} apply --in-place {repo}-copy {flags}")
            if kpt:
                results[(repo, "kpt")] = run(
                    "kpt source|sink", repo, f"{kpt} fn source {repo} | {kpt} fn sink {repo}-kpt"
                )
            if not args.no_naive:
                script = base / "naive.py"
                script.write_text(NAIVE)
                results[(repo, "naive")] = run("naive ruamel round trip", repo, f"{py} {script} {repo}")

    print()
    print(
        f"sizes: realistic {sizes['realistic'] / 1e6:.1f} MB ({args.docs} documents), "
        f"deprecated {sizes['deprecated'] / 1e6:.1f} MB; cores {os.cpu_count()}"
    )
    for repo in ("realistic", "deprecated"):
        for base_name in ("kpt", "naive"):
            if (repo, base_name) not in results:
                continue
            for what in ("scan", "check", "inplace"):
                ratio = results[(repo, base_name)] / results[(repo, what)]
                print(f"{repo:11} {what:8} is {ratio:6.1f}x faster than {base_name}")
    for what in ("scan", "check"):
        growth = results[("realistic-4x", what)] / results[("realistic", what)]
        print(f"growth 1x → 4x ({what}): {growth:.2f}x the time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
