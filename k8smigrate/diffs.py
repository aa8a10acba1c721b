"""The unified diff of one file: ``a/`` and ``b/`` headers, so that ``git apply`` accepts it.

Kept apart from ``report`` so that ``results.FileResult.diff`` can use it without importing
the reporting layer (which imports the results).
"""

from __future__ import annotations

from .quoting import quote_path


def unified_diff(old: str, new: str, filename: str) -> str:
    """A ``git apply``-able unified diff of one file ("" when unchanged).

    The headers name the file as its findings do (``a/<string>`` for ``migrate_text``,
    ``a/<stdin>`` for standard input). The header names are quoted as git quotes them when the
    name needs it (``quoting``): a newline or an undecodable byte in a file name can neither
    break the header nor the output.
    """
    if old == new:
        return ""
    import difflib  # here: a run that shows no diff (scan, apply --check) never needs it

    name = filename.lstrip("/")  # "<string>", "<stdin>": the name the findings give it, too
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=quote_path(f"a/{name}"),
        tofile=quote_path(f"b/{name}"),
    )
    out: list[str] = []
    for line in lines:
        if line.endswith("\n"):
            out.append(line)
        else:  # the last line of a file without a final newline
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)
