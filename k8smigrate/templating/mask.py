"""Masking: a template becomes a YAML skeleton of the same length and the same line breaks.

The engine migrates YAML; a template is YAML only once rendered. Masking replaces every
template tag with a placeholder (``placeholders``) chosen by where the tag stands, so that
the skeleton parses to the structure a rendering with simple values has:

- a line that holds only tags that write nothing (``{{- if … }}``, ``{{- end }}``,
  ``{{- $x := … }}``, comments) becomes a YAML comment line (``#`` and placeholder
  characters), moved right to the indentation of the next line of content when the line
  is long enough, so that it never ends a block scalar it stands in;
- a line that holds a tag that writes YAML (``{{ toYaml .Values.x | indent 8 }}``,
  ``{{- include "x.labels" . | nindent 4 }}``) becomes one unknown entry at the column the
  rendering puts it at (``nindent N``: column N; ``indent N``: N more than the tag's column):
  a key (``P:``) among keys, an item (``- P``) among items or under a list field;
- a tag inside a line of YAML (``name: {{ include "x.fullname" . }}``, ``"{{ .Values.a }}"``,
  ``{{ $key }}: {{ $value }}``) becomes placeholder characters of the same length, which read
  as plain or quoted string text;
- a ``define`` body (text that is not written where it stands) becomes comment lines.

A tag spanning lines keeps its line breaks: its first line is masked as above, the others
as comment lines (or as a plain scalar's continuation when it starts inside a line). What
cannot be represented (a tag that spans lines in the middle of YAML, an entry too short for
its column) is a located ``Problem``; the caller leaves that document as it is.

Unmasking (``unmask``) maps every region's skeleton back to its original text, and fails
when a region is missing, doubled or altered, so that a migration can move tags with the
nodes they belong to but never lose, copy or re-indent one.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import field

from ..dataclasscode import dataclass
from ..regexcode import regex
from . import placeholders as ph


@dataclass(frozen=True)
class Tag:
    """A template tag, whatever the dialect: its span and what it does where it stands."""

    start: int
    end: int
    writes: bool
    """False for comments, control tags (if/else/end/range/for/set…) and declarations."""
    indent: int | None = None
    """N of a trailing ``indent N`` (Go) or ``indent(N)`` (Jinja) in the tag's pipeline."""
    newline: bool = False
    """True when that indentation starts a new line (``nindent N``)."""
    role: str | None = None
    """``if`` (opens a block that may have ``else`` branches: if, with, range, for), ``open``
    (a block without: define, macro…), ``else`` (else, else if, elif), ``end``, or None."""


@dataclass(frozen=True)
class Chain:
    """An if/else chain: its tags (opener, each else, end) in order, as indices into the tags."""

    tags: tuple[int, ...]

    def branches(self, tags: list[Tag]) -> list[tuple[int, int]]:
        """The text spans of its branches."""
        return [(tags[a].end, tags[b].start) for a, b in zip(self.tags, self.tags[1:], strict=False)]


def blocks(tags: list[Tag]) -> list[Chain]:
    """Every block of ``tags`` (its opening tag, its else tags, its end), in the order they end."""
    out: list[Chain] = []
    stack: list[list[int]] = []
    for i, tag in enumerate(tags):
        if tag.role in ("if", "open"):
            stack.append([i])
        elif tag.role == "else" and stack:
            stack[-1].append(i)
        elif tag.role == "end" and stack:
            out.append(Chain((*stack.pop(), i)))
    return out


def chains(tags: list[Tag]) -> list[Chain]:
    """Every block of ``tags`` that has more than one branch."""
    return [chain for chain in blocks(tags) if len(chain.tags) > 2]


@dataclass(frozen=True)
class Region:
    """A span of the template and the skeleton text that stands for it (same length)."""

    start: int
    end: int
    skeleton: str
    original: str

    at_line_start: bool = False
    """The region is a whole line: its indentation is part of it and must not change."""

    @property
    def core(self) -> int:
        """Where the placeholder's start character sits inside ``skeleton``."""
        return self.skeleton.index(ph.START)


@dataclass(frozen=True)
class Problem:
    """Why a line of a template cannot be represented as YAML (1-based line)."""

    line: int
    message: str


@dataclass
class Skeleton:
    """The masked text, its regions in order, and the lines it could not represent."""

    text: str
    regions: list[Region] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


LIST_FIELDS = frozenset(
    {
        "args",
        "command",
        "containers",
        "env",
        "envFrom",
        "extraArgs",
        "hostAliases",
        "hosts",
        "imagePullSecrets",
        "initContainers",
        "items",
        "metrics",
        "paths",
        "ports",
        "rules",
        "subjects",
        "tls",
        "tolerations",
        "topologySpreadConstraints",
        "volumeClaimTemplates",
        "volumeMounts",
        "volumes",
        "webhooks",
    }
)
"""Fields whose value is a list: an unknown entry written under one of them is an item."""

_KEY_LINE = regex(r"^\s*(?:-\s+)*([\"']?)([^\s\"':#][^:#]*?)\1\s*:(?:\s+#.*)?\s*$")


_VALUE_KEY = regex(r"^([ \t]*(?:-[ \t]+)*)([A-Za-z0-9_./-]+):[ \t]*$")
"""The text before a tag that is a block key's whole value: indentation, dashes, key, colon
(kubeapps glues the tag to it: ``labels:{{ include … | nindent 4 }}``, which renders a line break)."""

_HEAD = ("#", "")
"""``block_value``'s answer for a tag that writes the head of a block the lines below go on with."""


class _TooShort(Exception):
    """No room for a placeholder where a tag stands."""


@dataclass
class _Line:
    """One line of a template: where its content is, the tags on it, and what kind of line it is."""

    start: int
    end: int
    """End of the content (before the line break)."""
    segments: list[tuple[int, int, int]] = field(default_factory=list)
    """(tag index, start, end) of the parts of tags on this line."""
    kind: str = "text"
    """blank, text (YAML with or without inline tags), control, output, hidden or continuation."""


_BLOCK_SCALAR_HEAD = regex(r"(?:^|[\s:-])[|>][-+0-9]*[ \t]*(?:#.*)?$")
"""The end of a line that starts a block scalar (``key: |``, ``- >-``, ``args: |2``)."""


def mask(text: str, tags: list[Tag], hidden: list[tuple[int, int]] | None = None) -> Skeleton:
    """The skeleton of ``text`` whose tags (sorted, not overlapping) are ``tags``.

    ``hidden`` spans (``define`` bodies with their tags, the other branches of an if/else
    that writes one key twice) are text the skeleton leaves out: they become comment lines.
    """
    lines = _lines(text)
    skeleton = _Builder(text, lines, tags)
    for start, end in hidden or []:
        skeleton.hide(start, end)
    skeleton.classify()
    skeleton.build()
    return skeleton.result()


def _lines(text: str) -> list[_Line]:
    out: list[_Line] = []
    pos = 0
    for m in re.finditer(r"\r?\n", text):
        out.append(_Line(pos, m.start()))
        pos = m.end()
    if pos < len(text) or not out:
        out.append(_Line(pos, len(text)))
    return out


class _Builder:
    def __init__(self, text: str, lines: list[_Line], tags: list[Tag]) -> None:
        self.text = text
        self.lines = lines
        self.tags = tags
        self.chars = list(text)
        self.regions: list[tuple[int, int, str]] = []
        self.whole_lines: set[int] = set()
        self.problems: list[Problem] = []
        self.hidden_lines: set[int] = set()
        self.block_of: dict[int, int] = {}
        self.starts = [line.start for line in lines]
        self.ending_at = {tag.end: tag for tag in tags}
        for i, tag in enumerate(tags):
            first = self.line_at(tag.start)
            last = self.line_at(max(tag.start, tag.end - 1))
            for n in range(first, last + 1):
                line = lines[n]
                a, b = max(tag.start, line.start), min(tag.end, line.end)
                if a < b or n == first:
                    line.segments.append((i, a, b))

    def line_at(self, index: int) -> int:
        import bisect

        return bisect.bisect_right(self.starts, index) - 1

    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(line + 1, message))

    # ------------------------------------------------------------------ classification
    def hide(self, start: int, end: int) -> None:
        first, last = self.line_at(start), self.line_at(max(start, end - 1))
        for n in range(first, last + 1):
            line = self.lines[n]
            a, b = max(start, line.start), min(end, line.end)
            if not self.text[a:b].strip():
                continue  # only the line break of a tag's line, or the indentation of the next tag
            if self.text[line.start : a].strip() or self.text[b : line.end].strip():
                self.problem(n, "text that is left out (a define, or an if/else branch) shares its line with YAML")
            self.hidden_lines.add(n)

    def classify(self) -> None:
        for n, line in enumerate(self.lines):
            if n in self.hidden_lines:
                line.kind = "hidden"
                continue
            rest = self.outside(line)
            if not line.segments:
                line.kind = "blank" if not rest.strip() else "text"
                continue
            if rest.strip():
                line.kind = "text"
                continue
            first_tag, first_start, _ = line.segments[0]
            if self.tags[first_tag].start < first_start:
                line.kind = "continuation"  # the line starts inside a tag that began above
            elif any(self.tags[i].writes and self.tags[i].start == a for i, a, _b in line.segments):
                line.kind = "output"
            else:
                line.kind = "control"

    def outside(self, line: _Line) -> str:
        parts = []
        pos = line.start
        for _i, a, b in line.segments:
            parts.append(self.text[pos:a])
            pos = b
        parts.append(self.text[pos : line.end])
        return "".join(parts)

    # ------------------------------------------------------------------ skeleton
    def build(self) -> None:
        done: set[int] = set()
        for n, line in enumerate(self.lines):
            if line.kind == "hidden":
                if n - 1 < 0 or self.lines[n - 1].kind not in ("hidden", "blank") or n - 1 not in self.block_of:
                    self.mask_hidden_block(n)
                continue
            for i, _a, _b in line.segments:
                if i in done:
                    continue
                done.add(i)
                try:
                    whole = self.mask_tag(i, n, line)
                except _TooShort:
                    self.problem(n, "a template tag too short to stand for what surrounds it")
                    whole = True
                if whole:
                    done.update(j for j, _a2, _b2 in line.segments)

    def mask_hidden_block(self, first: int) -> None:
        """Hidden lines from ``first`` on (blank lines between them included) as one region of
        comment lines: one number for the block, so that even its short lines come back."""
        last = first
        m = first
        while m < len(self.lines) and self.lines[m].kind in ("hidden", "blank"):
            if self.lines[m].kind == "hidden":
                last = m
            m += 1
        for k in range(first, last + 1):
            self.block_of[k] = first
        head = self.lines[first]
        content = self.text[head.start : head.end]
        start = head.start + len(content) - len(content.lstrip())
        tail = self.lines[last]
        end = tail.start + len(self.text[tail.start : tail.end].rstrip())
        filled = self._fill_lines("\n" + self.text[start:end], "#")[1:]
        try:
            self.region(start, end, filled)
        except _TooShort:
            if not self.join_tag_above(first, start, end, filled):
                self.problem(
                    first, "text left out of the skeleton (a define or an if/else branch) is too short to mask"
                )

    def join_tag_above(self, first: int, start: int, end: int, filled: str) -> bool:
        """Hidden text too short for a number of its own (prometheus' ``[]`` under ``{{- else
        }}``) joins the region of the line of tags right above it, whose number then stands
        for both. False when the line above is not one."""
        if first == 0 or not self.regions or self.lines[first - 1].kind != "control":
            return False
        region_start, region_end, skeleton = self.regions[-1]
        above = self.lines[first - 1]
        if not above.start <= region_end <= above.end or self.text[region_end:start].strip():
            return False
        self.regions.pop()
        self.region(region_start, end, skeleton + self.text[region_end:start] + filled)
        return True

    def mask_tag(self, i: int, n: int, line: _Line) -> bool:
        """Mask one tag; True when the whole line was masked with it."""
        tag = self.tags[i]
        last = self.line_at(max(tag.start, tag.end - 1))
        if last > n and self.outside_after(tag.end, self.lines[last].end).strip():
            self.problem(last, "a template tag that spans lines is followed by YAML on its last line")
            return True
        if line.kind == "output":
            # the whole line is one entry, whichever tag comes first: linkerd's
            # {{- with .Values.podLabels }}{{ toYaml . | nindent 4 }}{{- end }} starts with a control tag
            writer = next(j for j, a, _b in line.segments if self.tags[j].writes and self.tags[j].start == a)
            self.mask_output(writer, n, line)
            return True
        if line.kind in ("control", "output", "continuation"):
            self.mask_comment(tag, n, line)
            return False
        return self.mask_inline(tag, n)

    def outside_after(self, start: int, end: int) -> str:
        """The text of ``[start, end)`` outside tags."""
        parts = []
        pos = start
        for tag in self.tags:
            if tag.end <= pos or tag.start >= end:
                continue
            parts.append(self.text[pos : tag.start])
            pos = tag.end
        parts.append(self.text[pos:end] if pos < end else "")
        return "".join(parts)

    def code(self, length: int) -> str:
        if length < ph.MIN_LENGTH:
            raise _TooShort
        return ph.code(len(self.regions), length)

    def region(self, start: int, end: int, skeleton: str) -> None:
        """Mask ``text[start:end]`` with ``skeleton`` (same length).

        The region's number goes into the first run of padding long enough for it (the first
        line of a tag that spans lines may be as short as ``{{/*``).
        """
        assert len(skeleton) == end - start, (start, end, skeleton)
        if ph.START not in skeleton:
            run = skeleton.find(ph.PAD * ph.MIN_LENGTH)
            if run < 0:
                raise _TooShort
            skeleton = skeleton[:run] + self.code(ph.MIN_LENGTH) + skeleton[run + ph.MIN_LENGTH :]
        self.regions.append((start, end, skeleton))
        self.chars[start:end] = list(skeleton)

    @staticmethod
    def _fill_lines(text: str, filler: str) -> str:
        """Every line after the first: its indentation kept, the rest ``filler`` then padding."""
        parts = re.split(r"(\r?\n)", text)
        out = [parts[0] and ph.PAD * len(parts[0])]
        for j in range(1, len(parts), 2):
            out.append(parts[j])
            body = parts[j + 1]
            stripped = body.lstrip(" \t")
            lead = body[: len(body) - len(stripped)]
            if not stripped:
                out.append(body)
            elif filler == "#":
                out.append(lead + "#" + ph.PAD * (len(stripped) - 1))
            else:
                out.append(lead + ph.PAD * len(stripped))
        return "".join(out)

    def mask_inline(self, tag: Tag, n: int) -> bool:
        """Mask a tag inside a line of YAML; True when it masked the rest of the line with it
        (the tags that together are a key's block value)."""
        value = self.block_value(tag, n)
        if value is not None:
            flow, end = value
            # glued to the colon, the tag's first character stands for the line break it writes
            lead = " " if self.text[tag.start - 1] == ":" else ""
            inner = ph.PAD * (end - tag.start - 2 - len(lead))
            self.region(tag.start, end, lead + ("#" + inner + ph.PAD if flow == _HEAD else flow[0] + inner + flow[1]))
            return end > tag.end
        length = min(tag.end, self.lines[n].end) - tag.start
        first = ph.PAD * length
        if tag.end > self.lines[n].end:
            tail = self._fill_lines(self.text[self.lines[n].end : tag.end], "plain")
            self.region(tag.start, tag.end, first + tail)
        else:
            self.region(tag.start, tag.end, first)
        return False

    def value_tags(self, tag: Tag, line: _Line) -> tuple[int, Tag] | None:
        """(end, writer) when ``tag`` and the tags after it on its line, with nothing else after
        them, write a block below their key: one tag ``nindent N``, or control tags around tags
        that all write at the same ``nindent N`` (moodle's ``initContainers: {{- if .Values.x -}}
        {{- include … | nindent 8 }}{{- end -}}``, blocks opened and closed on the line)."""
        following = [self.tags[i] for i, a, _b in line.segments if a >= tag.start]
        if any(t.end > line.end for t in following) or self.outside_after(tag.start, line.end).strip():
            return None
        writers = [t for t in following if t.writes]
        if not writers or any(not t.newline or t.indent is None or t.indent != writers[0].indent for t in writers):
            return None
        depth = 0
        for t in following:
            depth += 1 if t.role in ("if", "open") else -1 if t.role == "end" else 0
            if depth < 0 or t.role == "open":
                return None
        return (following[-1].end, writers[0]) if depth == 0 else None

    def block_value(self, tag: Tag, n: int) -> tuple[tuple[str, str], int] | None:
        """(``{}`` or ``[]``, end) when ``tag`` (with the tags after it on the line:
        ``value_tags``) is the value of a key and writes a block below it; (``_HEAD``, end)
        when lines below, at the column it writes at, go on with that block.

        ``labels: {{ include "x.labels" . | nindent 4 }}`` renders a mapping on the lines
        after the key. Plain placeholder text would make the key a string (a migration would
        then see no labels at all); a one-entry flow mapping (a flow sequence under a list
        field) is a collection with one unknown entry, as a whole line of ``toYaml`` is. Only
        when nothing below adds to that block: a flow collection cannot be continued.

        When entries at column N follow (``labels: {{- include "x.labels" . | nindent 4 }}``
        then ``    app.kubernetes.io/component: web``, the idiom of Bitnami's charts), the tag
        writes the first entries of the block those lines go on with. It is masked as a
        comment after the key, so the key holds the block below; the entries the tag writes
        are unknown, and ``placeholders.opened_by_action`` tells a migration so.
        """
        line = self.lines[n]
        value = self.value_tags(tag, line)
        if value is None or value[0] - tag.start < ph.MIN_LENGTH + 3:
            return None
        end, writer = value
        indent = writer.indent
        key = _VALUE_KEY.match(self.text[line.start : tag.start])
        if key is None or indent is None or indent <= key.start(2):
            return None
        for m in range(n + 1, len(self.lines)):
            other = self.lines[m]
            if other.kind in ("blank", "control", "hidden", "continuation"):
                continue
            column = self.indentation(other)
            if other.kind == "output":
                writer = next(
                    self.tags[j] for j, a, _b in other.segments if self.tags[j].writes and self.tags[j].start == a
                )
                column = self.output_column(writer, other)
            if column > key.start(2):
                # the block goes on below: when at the tag's column, the tag writes its head
                return (_HEAD, end) if column == indent else None
            break
        return (("[", "]") if key.group(2) in LIST_FIELDS else ("{", "}")), end

    def mask_comment(self, tag: Tag, n: int, line: _Line) -> None:
        """A tag on a line of tags that write nothing: a comment (only the line's first tag needs '#')."""
        line_end = min(tag.end, line.end)
        length = line_end - tag.start
        first_on_line = line.segments[0][1] == tag.start
        tail = self._fill_lines(self.text[line.end : tag.end], "#") if tag.end > line.end else ""
        if not first_on_line:
            self.region(tag.start, tag.end, ph.PAD * length + tail)
            return
        col = tag.start - line.start
        wanted = self.next_indent(n) - col
        if wanted > length - 1 - ph.MIN_LENGTH and not tail and self.join_previous(n, tag, wanted, length):
            return
        if wanted > length - 1 - ph.MIN_LENGTH and not tail and self.join_text_above(n, tag, line, wanted):
            return
        shift = max(0, min(wanted, length - 1 - ph.MIN_LENGTH))
        head = " " * shift + "#"
        self.region(tag.start, tag.end, head + ph.PAD * (length - len(head)) + tail)

    def next_indent(self, n: int) -> int:
        """The indentation of the next line of content after line ``n`` (0 when there is none):
        a comment line must not stand left of it, or it would end a block scalar it stands in."""
        for m in range(n + 1, len(self.lines)):
            other = self.lines[m]
            if other.kind in ("blank", "control", "hidden", "continuation"):
                continue
            if other.kind == "output":  # it stands where the rendering puts what it writes
                writer = next((self.tags[i] for i, _a, _b in other.segments if self.tags[i].writes), None)
                if writer is not None:
                    return self.output_column(writer, other)
            content = self.text[other.start : other.end]
            return len(content) - len(content.lstrip(" "))
        return 0

    def join_previous(self, n: int, tag: Tag, wanted: int, length: int) -> bool:
        """A tag too short to hold a placeholder at the column it must move to (consul's
        ``{{- end }}`` six columns left of the script it closes): its line joins the region of
        the tag that ends the line above (a line of actions, or one that writes YAML), whose
        number then stands for both. False when there is no such region, or the line is too
        short even for ``#``."""
        if n == 0 or length < wanted + 1 or not self.regions or self.lines[n - 1].kind not in ("control", "output"):
            return False
        start, end, skeleton = self.regions[-1]
        if end != self.lines[n - 1].end or self.text[end : self.lines[n].start].strip():
            return False
        self.regions.pop()
        between = self.text[end : tag.start]  # the line break, then the tag's indentation
        head = " " * wanted + "#"
        self.region(start, tag.end, skeleton + between + head + ph.PAD * (length - len(head)))
        return True

    def join_text_above(self, n: int, tag: Tag, line: _Line, wanted: int) -> bool:
        """A line of one tag inside a block scalar, too short for a comment at the scalar's
        indentation (nifi's ``{{- end }}`` at column 0 under a line of a script): it becomes
        spaces, an empty line of the scalar, in the region of the last tag above it (on a line of
        the script, or of tags), whose number then stands for both; the lines between, kept as
        they are, must be lines of the same scalar. False when there is no such tag or this
        line is not in a block scalar."""
        column = tag.start - line.start + wanted  # the scalar's indentation
        if len(line.segments) != 1 or not self.regions or not self.in_block_scalar(n, column):
            return False
        start, end, skeleton = self.regions[-1]
        m = n - 1
        while m >= 0 and self.lines[m].start > end:
            between_line = self.lines[m]
            if between_line.kind not in ("text", "blank") or (
                between_line.kind == "text" and self.indentation(between_line) < column
            ):
                return False
            m -= 1
        if m < 0 or self.lines[m].kind not in ("text", "control") or end > self.lines[m].end:
            return False
        self.regions.pop()
        between = self.text[end : tag.start]  # the rest of the line above, line breaks, indentation
        self.region(start, tag.end, skeleton + between + " " * (tag.end - tag.start))
        return True

    def mask_output(self, i: int, n: int, line: _Line) -> None:
        """A line that writes YAML: one unknown key or item at the column the rendering uses."""
        tag = self.tags[i]
        start = line.start
        column = self.output_column(tag, line)
        width = line.end - start
        form = self.form(n, column)
        room = width - column - (2 if form == "item" else 1)
        if room < ph.MIN_LENGTH:
            self.problem(n, f"a line that writes YAML at column {column} is too short to stand for it")
            return
        if form == "key" and self.joined(tag) and self.next_indent(n) > column and not self.in_block_scalar(n, column):
            # the skeleton would read the lines below as this key's value: a guess, never a reading
            self.problem(
                n,
                "an action that writes YAML joined to the text before it (it trims the line break and "
                "has no indent) stands where the lines below it go on: where its output goes is unknown",
            )
            return
        head = " " * column + ("- " if form == "item" else "")
        core = head + self.code(room) + (":" if form == "key" else "")
        # the tags after this one on the line belong to the region; so do later lines of a spanning tag
        stop = max(self.tags[j].end for j, _a, _b in line.segments)
        tail = self._fill_lines(self.text[line.end : stop], "#") if stop > line.end else ""
        self.region(start, max(stop, line.end), core + tail)
        self.whole_lines.add(start)

    def output_column(self, tag: Tag, line: _Line) -> int:
        """The column at which a line's writing tag puts what it writes."""
        if tag.indent is not None and tag.newline:
            return tag.indent
        if tag.indent is not None:
            base = self.trimmed_column(tag)
            return (tag.start - line.start if base is None else base) + tag.indent
        return self.indentation(line)

    def trimmed_column(self, tag: Tag) -> int | None:
        """Where the rendering of a tag that trims the space before it (``{{- toYaml . | indent 4 }}``) starts.

        The trim eats the tag's indentation and the line breaks before it, back to the last
        text written: after a line of tags that write nothing and do not trim (``{{ if … }}``
        at column 0), the output starts where that line starts, so ``indent N`` puts it at
        column N, not N more than the tag's own column. None when the trim reaches YAML text
        (the output is joined to it) or is not there.
        """
        if not self.trims_before(tag.start):
            return None
        k = tag.start
        while True:
            while k > 0 and self.text[k - 1] in " \t\r\n":
                k -= 1
            if k == 0:
                return 0
            before = self.ending_at.get(k)
            if before is None or before.writes:
                return None
            lead = self.text[self.text.rfind("\n", 0, before.start) + 1 : before.start]
            if lead.strip(" \t"):
                return None
            if not self.trims_before(before.start):
                return len(lead)
            k = before.start

    def in_block_scalar(self, n: int, column: int) -> bool:
        """Whether line ``n``, at ``column``, is inside a block scalar: going up, each line less
        indented than all below it may be the scalar's text, until one ends with ``|`` or ``>``
        (and their indicators): the scalar's head."""
        least = column
        for m in range(n - 1, -1, -1):
            line = self.lines[m]
            if line.kind != "text":
                continue
            content = self.outside(line)
            stripped = content.lstrip(" ")
            indent = len(content) - len(stripped)
            if not stripped.strip() or indent >= least:
                continue
            if _BLOCK_SCALAR_HEAD.search(content):
                return True
            least = indent
        return False

    def joined(self, tag: Tag) -> bool:
        """Whether what a tag without ``indent`` writes is joined to what was written before it
        (``{{- "\\n" }}{{ tpl … }}`` after ``paths:``): then its column is not known."""
        return tag.indent is None and self.trims_before(tag.start) and self.trimmed_column(tag) is None

    def trims_before(self, pos: int) -> bool:
        """Whether the tag at ``pos`` opens with a trim marker (``{{- ``, ``{%- ``)."""
        return self.text.startswith(("{{-", "{%-"), pos) and self.text[pos + 3 : pos + 4] in (" ", "\t", "\n", "\r")

    def indentation(self, line: _Line) -> int:
        content = self.text[line.start : line.end]
        return len(content) - len(content.lstrip(" "))

    def form(self, n: int, column: int) -> str:
        """``key`` or ``item``: what an unknown entry at ``column`` must be among its neighbours.

        Siblings decide (the nearest lines at that column, above or below, deeper lines
        skipped); without siblings, the parent key does (an item under a list field).
        """
        if self.list_field_above(n, column):
            return "item"
        for step in (1, -1):
            m = n + step
            while 0 <= m < len(self.lines):
                line = self.lines[m]
                m += step
                if line.kind != "text":
                    continue
                content = self.text[line.start : line.end]
                stripped = content.lstrip(" ")
                if stripped.startswith("#"):
                    continue  # a comment line is no sibling, whatever its column
                indent = len(content) - len(stripped)
                inner = indent
                while stripped.startswith("- "):
                    rest = stripped[2:].lstrip(" ")
                    inner += len(stripped) - len(rest)
                    stripped = rest
                if indent == column:
                    return "item" if content.lstrip().startswith("-") else "key"
                if step == -1 and inner == column and indent < column:
                    return "key"  # a key of the item that line opens
                if indent < column:
                    if step == 1:
                        break  # the block ended below: ask the lines above
                    key = _KEY_LINE.match(content)
                    if key is not None and key.group(2).strip() in LIST_FIELDS:
                        return "item"
                    return "key"
        return "key"

    def list_field_above(self, n: int, column: int) -> bool:
        """Whether the nearest line of YAML above line ``n`` is a list field with no value at
        ``column`` (datadog's ``containers:`` then ``{{- include "x.container" . | nindent 6 }}``
        at the key's own column: YAML reads items there as the key's, an indentless sequence)."""
        for m in range(n - 1, -1, -1):
            line = self.lines[m]
            if line.kind != "text":
                if line.kind in ("blank", "control", "hidden"):
                    continue
                return False
            content = self.text[line.start : line.end]
            if content.lstrip(" ").startswith("#"):
                continue
            key = _KEY_LINE.match(content)
            return (
                key is not None
                and len(content) - len(content.lstrip(" ")) == column
                and key.group(2).strip() in LIST_FIELDS
            )
        return False

    def result(self) -> Skeleton:
        regions = [
            Region(start, end, skeleton, self.text[start:end], start in self.whole_lines)
            for start, end, skeleton in sorted(self.regions)
            if ph.START in skeleton
        ]
        return Skeleton("".join(self.chars), regions, self.problems)


class UnmaskError(ValueError):
    """The migrated skeleton lost, doubled or altered a region (a 1-based line where known)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


def unmask(text: str, skeleton: Skeleton, regions: list[Region] | None = None) -> str:
    """``text`` (a migrated skeleton) with every region's original text back in place.

    Each region of ``regions`` (default: all of the skeleton's) must appear exactly once and
    intact; ``UnmaskError`` says which did not.
    """
    by_index = {ph.index_of(r.skeleton[r.core :]): r for r in skeleton.regions}
    wanted = regions if regions is not None else skeleton.regions
    seen: Counter[int] = Counter()
    out: list[str] = []
    pos = 0
    for m in ph.CODE.finditer(text):
        index = ph.index_of(m.group())
        region = by_index.get(index)
        line = text.count("\n", 0, m.start()) + 1
        if region is None:
            raise UnmaskError("a placeholder the template does not have", line)
        seen[index] += 1
        begin = m.start() - region.core
        moved = region.at_line_start and begin > 0 and text[begin - 1] != "\n"
        if begin < pos or moved or text[begin : begin + len(region.skeleton)] != region.skeleton:
            raise UnmaskError(f"template text {_short(region.original)} was moved or re-indented", line)
        out.append(text[pos:begin])
        out.append(region.original)
        pos = begin + len(region.skeleton)
    out.append(text[pos:])
    escaped = _ESCAPED.search(text)
    if escaped is not None:
        line = text.count("\n", 0, escaped.start()) + 1
        raise UnmaskError("template text would be copied into a quoted string (a migration copies a value)", line)
    for region in wanted:
        index = ph.index_of(region.skeleton[region.core :])
        if seen[index] != 1:
            what = "lost (the migration removes the field that holds it)" if seen[index] == 0 else "copied"
            raise UnmaskError(f"template text {_short(region.original)} would be {what}")
    result = "".join(out)
    if ph.ANY_CHAR.search(result):
        raise UnmaskError("placeholder characters left after unmasking")
    return result


def unmask_message(message: str, skeleton: Skeleton) -> str:
    """A finding's message with each placeholder replaced by its tag's text (best effort)."""
    if "\\ue" in message:  # a repr() of a placeholder: its escapes back to characters
        message = _ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), message)
    if ph.START not in message:
        return message
    by_index = {ph.index_of(r.skeleton[r.core :]): r for r in skeleton.regions}

    def original(m: re.Match[str]) -> str:
        region = by_index.get(ph.index_of(m.group()))
        return region.original.strip() if region is not None else m.group()

    return ph.CODE.sub(original, message)


_ESCAPED = regex(r"\\u(e[0-9a-f]{3}|f[0-8][0-9a-f]{2})")


def _short(text: str) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= 60 else text[:57] + "...")
