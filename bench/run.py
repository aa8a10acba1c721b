#!/usr/bin/env python3
"""Benchmark k8smigrate against baselines measured in the same run, and check issue 19's targets.

Every command is a fresh process, as a user runs it: by default from a regular (not editable)
install of this checkout in a new venv (``--venv installed``), with bytecode cached. Each is
run ``--repeat`` times, interleaved with the others (so drift on a busy machine hits all of
them alike), and its median wall time is used; the median CPU time (user + system, the
process and its children) is printed beside it, the figure to trust on a loaded machine.
The peak memory is the largest resident set of the process and the children it waited for
(``wait4``), the highest over the repetitions.

Parts (``--parts``, default ``one,small,realistic,lines``):

- ``one``: one small file (``bench/deprecated/ingress-extensions.yaml``, a deprecated
  Ingress): ``k8smigrate apply --check`` and ``k8smigrate scan`` against the bare interpreter
  of the same venv (``python -c pass``), ``python -c 'import ruamel.yaml'``,
  ``kpt fn source | kpt fn sink`` on a folder holding only that file, and the naive round trip;
- ``small``: the 1.4 MB repository of issue 19: 600 files of one current app document each
  (Deployment, Service or ConfigMap in turn, the realistic repository's builders) and 150
  files of one deprecated document each, drawn with a fixed seed from the deprecated pool;
- ``realistic``: about ``--docs`` documents (default 20,000, about 22 MB) of current
  Deployments, Services and ConfigMaps with comments, 10 % of them drawn from the deprecated
  pool; and the same built with 4x the documents, for growth and the flatness of ``scan``'s
  peak memory;
- ``deprecated``: only deprecated manifests, repeated to ``--deprecated-mb`` MB (off by default);
- ``lines``: one deprecated Ingress in JSON with ``--line-keys`` annotations (default 50,000,
  about 1.7 MB), written on one line (``one-line``) and indented (``indented``): the same
  document, so their times must be alike. A cost per node that grows with its column (a scan
  back to the line's start) made the one-line file take minutes; a guard, not a target of
  issue 19, printed with them.

Each repository is measured with ``scan``, ``apply --check`` (``--in-place`` on a fresh copy
with ``--in-place``), ``kpt fn source | kpt fn sink`` (when ``kpt`` is on PATH) and the naive
ruamel.yaml round trip (load and dump every document; once only on the large repositories,
where it takes minutes; ``--no-naive`` skips it there). Then the ratios against each target
of issue 19 are printed with whether it is met.

The deprecated pool: the documents on a deprecated API of ``../shared/corpus/files`` (files
without template markers) when the corpus is beside this checkout; without it, the
deprecated manifests shipped in ``bench/deprecated/`` (synthetic, written for this benchmark,
one or two documents per API), so ``python bench/run.py`` runs anywhere. The two pools differ
(the corpus holds large CRDs), so the figures are comparable only within one pool; the
output says which one was used.

    python bench/run.py                     # everything, default sizes (about 10 minutes)
    python bench/run.py --quick             # 3 repetitions, 2,000 documents, no naive run on large ones
    python bench/run.py --parts one,small   # the fixed-cost cases only
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "files"
SHIPPED = Path(__file__).resolve().parent / "deprecated"
ONE_FILE = SHIPPED / "ingress-extensions.yaml"
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
root = Path(sys.argv[1])
for path in [root] if root.is_file() else sorted(root.rglob("*.yaml")):
    out = io.StringIO()
    yaml.dump_all(list(yaml.load_all(path.read_text())), out)
"""


# ------------------------------------------------------------------ repositories


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


MAKERS = (deployment, service, configmap)


def _deprecated_parts(paths: list[Path]) -> list[str]:
    docs: list[str] = []
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        if "{{" in text or "{%" in text or not path.name.endswith((".yaml", ".yml")):
            continue
        for part in text.split("\n---\n"):
            if any(f"apiVersion: {api}\n" in part for api in DEPRECATED_APIS):
                docs.append(part.strip("\n") + "\n")
    return docs


def deprecated_documents() -> list[str]:
    """Documents of the corpus that are on a deprecated API, from files without templates."""
    return _deprecated_parts(sorted(CORPUS.iterdir()))


def shipped_documents() -> list[str]:
    """The deprecated documents of ``bench/deprecated`` (synthetic, written for the benchmark)."""
    return _deprecated_parts(sorted(SHIPPED.iterdir()))


def deprecated_pool() -> list[str]:
    """The corpus's deprecated documents when the corpus is there, else the shipped ones."""
    return deprecated_documents() if CORPUS.is_dir() else shipped_documents()


def build_realistic(folder: Path, docs: int, seed: int, pool: list[str]) -> int:
    rng = random.Random(seed)
    written = 0
    i = 0
    while i < docs:
        chunk: list[str] = []
        for _ in range(rng.randint(1, 12)):
            if rng.random() < 0.10:
                chunk.append(rng.choice(pool))
            else:
                chunk.append(MAKERS[i % 3](rng, i))
            i += 1
        path = folder / f"team-{i % 23}" / f"manifests-{i:06d}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = "---\n".join(chunk)
        path.write_text(text, encoding="utf-8")
        written += len(text.encode())
    return written


def build_small(folder: Path, seed: int, pool: list[str], apps: int = 600, deprecated: int = 150) -> int:
    """Issue 19's small repository: ``apps`` one-document current files, ``deprecated`` drawn from ``pool``."""
    rng = random.Random(seed)
    written = 0
    files: list[tuple[Path, str]] = []
    for i in range(apps):
        files.append((folder / f"apps/team-{i % 23}/app-{i:04d}.yaml", MAKERS[i % 3](rng, i)))
    for j in range(deprecated):
        files.append((folder / f"legacy/team-{j % 7}/legacy-{j:03d}.yaml", rng.choice(pool)))
    for path, text in files:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written += len(text.encode())
    return written


def build_deprecated(folder: Path, megabytes: float, pool: list[str]) -> int:
    """Deprecated documents only, one file each, repeated to ``megabytes``."""
    written, n = 0, 0
    while written < megabytes * 1e6:
        for text in pool:
            path = folder / f"copy-{n // len(pool):03d}" / f"doc-{n % len(pool):03d}.yaml"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written += len(text.encode())
            n += 1
    return written


def build_lines(folder: Path, keys: int, one_line: bool) -> int:
    """One deprecated Ingress in JSON with ``keys`` annotations, on one line or indented.

    Written piece by piece: a dictionary of the annotations grew this process by 20 MB, and
    every command it starts afterwards inherits that peak (``ru_maxrss`` counts the process
    it was forked from), which hid the growth of ``scan``'s peak memory.
    """
    backend = '"spec": {"backend": {"serviceName": "web", "servicePort": 80}}'
    if one_line:
        head = '{"apiVersion": "extensions/v1beta1", "kind": "Ingress", "metadata": {"name": "wide", '
        head, sep, tail = head + '"annotations": {', ", ", "}}, " + backend + "}\n"
    else:
        head = '{\n  "apiVersion": "extensions/v1beta1",\n  "kind": "Ingress",\n  "metadata": {\n    "name": "wide",\n'
        head, sep, tail = head + '    "annotations": {\n      ', ",\n      ", "\n    }\n  },\n  " + backend + "\n}\n"
    written = 0
    with (folder / "ingress.json").open("w", encoding="utf-8") as out:
        written += out.write(head)
        for i in range(keys):
            written += out.write(f'{sep if i else ""}"example.com/key-{i}": "value {i}"')
        written += out.write(tail)
    return written


LINE_REPOS = ("one-line", "indented")
"""The ``lines`` part's repositories: measured with ``scan`` and ``apply --check`` only."""


def build_one(folder: Path) -> int:
    """A folder holding only the one small file (kpt reads folders)."""
    shutil.copyfile(ONE_FILE, folder / ONE_FILE.name)
    return ONE_FILE.stat().st_size


# ------------------------------------------------------------------ measuring


@dataclass
class Timing:
    """The repetitions of one command on one repository."""

    repo: str
    label: str
    seconds: list[float] = field(default_factory=list)
    peaks_mb: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    codes: set[int] = field(default_factory=set)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu)

    @property
    def peak(self) -> float:
        return max(self.peaks_mb)


def measure(cmd: list[str] | str, cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float, float, int]:
    """Wall seconds, CPU seconds, peak RSS in MB (the process and its waited-for children), exit code."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd, shell=isinstance(cmd, str), cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _pid, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode


@dataclass
class Command:
    label: str
    make: Callable[[int], list[str] | str]
    """The command line of repetition ``n`` (kpt needs a new output folder each time)."""
    repeat: int
    prepare: Callable[[int], None] | None = None


def installed_venv(folder: Path) -> str | None:
    """The python of a new venv holding a regular install of this checkout, or None when pip fails.

    An editable install (a developer's venv) puts an import hook into every start of its
    interpreter, the bare one included: about 20 ms here, which users of a released package
    never pay. The dependencies are not installed again: the running interpreter's
    site-packages are put on the new venv's path (a ``.pth`` file there is a plain folder
    entry, so the editable hook it holds is not run).
    """
    python = folder / "bin" / "python"
    try:
        subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--no-deps", str(ROOT)],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except subprocess.CalledProcessError:
        print("could not install the checkout into a venv: measuring the running interpreter's", file=sys.stderr)
        return None
    paths = sysconfig.get_paths()
    ours = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    deps = dict.fromkeys([paths["purelib"], paths["platlib"]])
    Path(ours, "k8smigrate-bench-deps.pth").write_text("".join(f"{d}\n" for d in deps))
    return str(python)


class Bench:
    def __init__(self, base: Path, args: argparse.Namespace) -> None:
        self.base = base
        self.args = args
        self.python = sys.executable
        if args.venv == "installed":
            self.python = installed_venv(base / "venv") or sys.executable
        self.exe = str(Path(self.python).parent / "k8smigrate")
        self.kpt = shutil.which("kpt")
        self.naive = base / "naive.py"
        self.naive.write_text(NAIVE)
        self.sizes: dict[str, int] = {}
        # As installed: bytecode cached. PYTHONDONTWRITEBYTECODE (set on some machines, this
        # project's among them) would recompile every module of the package on each start;
        # the cache goes to a folder of this run, never into the checkout.
        self.env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        self.env["PYTHONPYCACHEPREFIX"] = str(base / "pycache")
        warm = "import k8smigrate.cli, ruamel.yaml; k8smigrate.default_registry()"
        subprocess.run([self.python, "-c", warm], cwd=base, env=self.env, check=True)
        self.results: dict[tuple[str, str], Timing] = {}

    def ours(self, command: str, target: str) -> list[str]:
        flags = ["--target-version", self.args.target, "--jobs", str(self.args.jobs), "--color", "never"]
        if command == "scan":
            return [self.exe, "scan", target, *flags, "--fail-on", "never"]
        return [self.exe, "apply", command, target, *flags]

    def commands(self, repo: str, large: bool) -> list[Command]:
        """What is measured on one repository (folder ``repo`` under the base)."""
        repeat = self.args.repeat_large if large else self.args.repeat
        target = repo if repo != "one" else f"one/{ONE_FILE.name}"
        out = [
            Command("k8smigrate scan", lambda n: self.ours("scan", target), repeat),
            Command("k8smigrate apply --check", lambda n: self.ours("--check", target), repeat),
        ]
        if self.args.in_place and repo != "one":

            def fresh(n: int) -> None:
                copy = self.base / f"{repo}-copy"
                shutil.rmtree(copy, ignore_errors=True)
                shutil.copytree(self.base / repo, copy)

            out.append(Command("k8smigrate apply -i", lambda n: self.ours("--in-place", f"{repo}-copy"), repeat, fresh))
        if repo in LINE_REPOS:
            return out
        if repo == "one":
            py = self.python
            out.append(Command("python -c pass", lambda n: [py, "-c", "pass"], repeat))
            out.append(Command("python: import ruamel.yaml", lambda n: [py, "-c", "import ruamel.yaml"], repeat))
        if self.kpt and repo != "realistic-4x":
            kpt = self.kpt

            def clean(n: int) -> None:
                shutil.rmtree(self.base / f"{repo}-kpt-{n}", ignore_errors=True)

            out.append(
                Command(
                    "kpt fn source | sink", lambda n: f"{kpt} fn source {repo} | {kpt} fn sink {repo}-kpt-{n}", repeat
                )
            )
            out[-1].prepare = clean
        if repo != "realistic-4x" and not (large and self.args.no_naive):
            naive_repeat = 1 if large else repeat
            out.append(
                Command("naive ruamel round trip", lambda n: [self.python, str(self.naive), target], naive_repeat)
            )
        return out

    def run(self, repo: str, large: bool) -> None:
        commands = self.commands(repo, large)
        timings = {c.label: Timing(repo, c.label) for c in commands}
        if not large:  # one unmeasured run each: bytecode and page cache warm, as on a second commit
            for c in commands:
                if c.prepare is not None:
                    c.prepare(-1)
                measure(c.make(-1), self.base, self.env)
        for n in range(max(c.repeat for c in commands)):
            for c in commands:
                if n >= c.repeat:
                    continue
                if c.prepare is not None:
                    c.prepare(n)
                seconds, cpu, peak, code = measure(c.make(n), self.base, self.env)
                t = timings[c.label]
                t.seconds.append(seconds)
                t.cpu.append(cpu)
                t.peaks_mb.append(peak)
                t.codes.add(code)
        mb = self.sizes[repo] / 1e6
        for c in commands:
            t = timings[c.label]
            self.results[(repo, c.label)] = t
            spread = f"{min(t.seconds):.3f}–{max(t.seconds):.3f}" if len(t.seconds) > 1 else "single run"
            print(
                f"{repo:13} {c.label:28} {t.median:8.3f} s  ({spread}, n={len(t.seconds)})  cpu {t.cpu_median:7.3f} s"
                f"  {mb / t.median:7.2f} MB/s  peak {t.peak:6.0f} MB  exit {','.join(map(str, sorted(t.codes)))}",
                flush=True,
            )

    def time_of(self, repo: str, label: str) -> float | None:
        t = self.results.get((repo, label))
        return t.median if t else None


# ------------------------------------------------------------------ targets


SCAN, CHECK, KPT, NAIVE_LABEL = (
    "k8smigrate scan",
    "k8smigrate apply --check",
    "kpt fn source | sink",
    "naive ruamel round trip",
)


def report_targets(bench: Bench) -> int:
    """Print each of issue 19's targets with the measured ratio; the number missed.

    Beside each ratio of wall times, the same ratio of CPU times: on a loaded machine it is
    the steadier figure (workers and kpt's threads then add their CPU instead of overlapping).
    """
    missed = 0

    def line(what: str, value: float | None, goal: str, ok: bool | None, cpu: float | None = None) -> None:
        nonlocal missed
        if value is None or ok is None:
            print(f"  {what:58} not measured ({goal})")
            return
        missed += not ok
        beside = f"  (cpu {cpu:.2f})" if cpu is not None else ""
        print(f"  {what:58} {value:6.2f}  target {goal:8} {'met' if ok else 'MISSED'}{beside}")

    def ratio(repo_a: str, label_a: str, repo_b: str, label_b: str) -> tuple[float | None, float | None]:
        """(wall, cpu) of b over a."""
        a, b = bench.results.get((repo_a, label_a)), bench.results.get((repo_b, label_b))
        if a is None or b is None:
            return None, None
        return b.median / a.median, (b.cpu_median / a.cpu_median if a.cpu_median else None)

    def faster(repo: str, ours: str, base: str, goal: float) -> None:
        wall, cpu = ratio(repo, ours, repo, base)
        what = f"{repo}: {ours[11:]} vs {base.split()[0]} (x faster)"
        line(what, wall, f">= {goal:g}x", None if wall is None else wall >= goal, cpu)

    print("\ntargets of issue 19 (ratios of medians in this run):")
    for label in (CHECK, SCAN):
        wall, cpu = ratio("one", KPT, "one", label)
        line(f"one: {label[11:]} time / kpt's (x kpt)", wall, "<= 2x", None if wall is None else wall <= 2, cpu)
        wall, cpu = ratio("one", "python -c pass", "one", label)
        if wall is not None:
            print(f"  {'  (for scale: ' + label[11:] + ' / bare interpreter)':58} {wall:6.2f}  (cpu {cpu or 0:.2f})")
    for label, goal in ((CHECK, 3), (SCAN, 5)):
        faster("small", label, KPT, goal)
    for label in (CHECK, SCAN):
        faster("small", label, NAIVE_LABEL, 20)
    for label, goal in ((CHECK, 3), (SCAN, 8)):
        faster("realistic", label, KPT, goal)
    for label in (CHECK, SCAN):
        wall, cpu = ratio("realistic", label, "realistic-4x", label)
        what = f"realistic 1x → 4x: {label[11:]} time growth"
        line(what, wall, "<= 4.4x", None if wall is None else wall <= 4.4, cpu)
    one_x, four_x = bench.results.get(("realistic", SCAN)), bench.results.get(("realistic-4x", SCAN))
    if one_x and four_x:
        growth = four_x.peak / one_x.peak
        print(
            f"  {'realistic 1x → 4x: scan peak memory':58} {growth:6.2f}  ({one_x.peak:.0f} → {four_x.peak:.0f} MB; "
            f"flat: <= 1.25x) {'met' if growth <= 1.25 else 'MISSED'}"
        )
        missed += growth > 1.25
    print("  output byte-identical to today's: checked by bench/oracle.py, not here")
    if any(repo == "one-line" for repo, _label in bench.results):
        print("\nguard (not a target of issue 19):")
        for label in (CHECK, SCAN):
            wall, cpu = ratio("indented", label, "one-line", label)
            ok = None if wall is None else wall <= 2
            line(f"lines: {label[11:]}, one-line JSON / indented", wall, "<= 2x", ok, cpu)
    return missed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--parts", default="one,small,realistic,lines", help="comma-separated: one, small, realistic, deprecated, lines"
    )
    ap.add_argument("--line-keys", type=int, default=50_000, help="annotations of the lines part's Ingress")
    ap.add_argument("--docs", type=int, default=20_000, help="documents in the realistic repository")
    ap.add_argument("--deprecated-mb", type=float, default=4.0, help="size of the deprecated-only repository")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=0, help="k8smigrate --jobs (0: all cores, as users run it)")
    ap.add_argument("--target", default="1.29")
    ap.add_argument("--repeat", type=int, default=5, help="runs per command on the one file and small repository")
    ap.add_argument("--repeat-large", type=int, default=3, help="runs per command on the large repositories")
    ap.add_argument("--in-place", action="store_true", help="also time apply --in-place (on a fresh copy)")
    ap.add_argument("--no-naive", action="store_true", help="skip the naive round trip on the large repositories")
    ap.add_argument(
        "--venv",
        choices=("installed", "current"),
        default="installed",
        help="measure a regular install of this checkout in a new venv (as users run it), or the running venv",
    )
    ap.add_argument("--quick", action="store_true", help="--repeat 3 --repeat-large 1 --docs 2000 --no-naive")
    args = ap.parse_args()
    if args.quick:
        args.repeat, args.repeat_large, args.docs, args.no_naive = 3, 1, 2000, True
    parts = {p.strip() for p in args.parts.split(",") if p.strip()}
    unknown = parts - {"one", "small", "realistic", "deprecated", "lines"}
    if unknown:
        ap.error(f"unknown parts: {', '.join(sorted(unknown))}")
    pool = deprecated_pool()
    source = f"corpus ({CORPUS})" if CORPUS.is_dir() else f"shipped ({SHIPPED}; no ../shared/corpus)"

    with tempfile.TemporaryDirectory(prefix="k8smigrate-bench-") as tmp:
        bench = Bench(Path(tmp), args)
        builders: list[tuple[str, Callable[[Path], int], bool]] = []
        if "one" in parts:
            builders.append(("one", build_one, False))
        if "small" in parts:
            builders.append(("small", lambda d: build_small(d, args.seed, pool), False))
        if "realistic" in parts:
            builders.append(("realistic", lambda d: build_realistic(d, args.docs, args.seed, pool), True))
            builders.append(("realistic-4x", lambda d: build_realistic(d, args.docs * 4, args.seed, pool), True))
        if "deprecated" in parts:
            builders.append(("deprecated", lambda d: build_deprecated(d, args.deprecated_mb, pool), True))
        if "lines" in parts:
            builders.append(("one-line", lambda d: build_lines(d, args.line_keys, one_line=True), False))
            builders.append(("indented", lambda d: build_lines(d, args.line_keys, one_line=False), False))
        for name, builder, _large in builders:
            folder = bench.base / name
            folder.mkdir()
            bench.sizes[name] = builder(folder)
        manifests = (".yaml", ".yml", ".json")
        counts = {name: sum(p.suffix in manifests for p in (bench.base / name).rglob("*")) for name, _b, _l in builders}
        print(
            f"k8smigrate {bench.exe} ({args.venv}); python {sys.version.split()[0]}; cores {os.cpu_count()}; "
            f"load average {os.getloadavg()[0]:.1f}; "
            f"kpt {'at ' + bench.kpt if bench.kpt else 'not on PATH'}; deprecated pool: {len(pool)} documents, {source}"
        )
        print(
            "sizes: "
            + "; ".join(f"{n} {bench.sizes[n] / 1e6:.2f} MB in {counts[n]} files" for n, _b, _l in builders)
            + f"; --jobs {args.jobs}, target {args.target}\n",
            flush=True,
        )
        for name, _builder, large in builders:
            bench.run(name, large)
        print(f"\nload average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())} (cores {os.cpu_count()})")
    missed = report_targets(bench)
    print(f"\n{missed} target(s) missed" if missed else "\nall measured targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
