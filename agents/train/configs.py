"""The built-in training configs, by name: ``mjenv train --config demo`` works from any folder.

The repository's ``configs/`` folder (smoke, demo, long, bc_smoke) is installed inside this
package as ``mjenv_agents.configs``, so a wheel carries it and a user who never cloned the
repository can still run ``mjenv train --config smoke``. The files are read through
:mod:`importlib.resources`, which finds them in an installed wheel and in an editable install of
the checkout alike.

A config's description is the first sentence of the comment at the top of its file, so the
listing (``mjenv configs``) cannot drift from the files it lists.

This module needs only the standard library (no torch): listing and resolving work without the
training extra.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

PACKAGE = __name__.split(".")[0] + ".configs"
"""The package holding the built-in configs: ``mjenv_agents.configs`` once installed (derived
from this module's own name rather than spelled out, like the relative imports of the package)."""

SUFFIX = ".toml"
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")


def _folder() -> Path:
    """The installed folder of the built-in configs (a real folder: pip installs unpacked)."""
    try:
        folder = resources.files(PACKAGE)
    except ModuleNotFoundError:
        raise ValueError(f"the built-in configs ({PACKAGE}) are not installed") from None
    if not isinstance(folder, Path):  # an import from a zip archive: nothing to open by path
        raise ValueError(f"the built-in configs ({PACKAGE}) are not on the file system")
    return folder


def describe(text: str) -> str:
    """The description of a config: the first sentence of its leading comment block.

    The block is the run of ``#`` lines at the top of the file; it ends at the first line that
    is not a comment, an empty comment, or an indented one (a command-line example). An
    uncommented file has the empty description."""
    words: list[str] = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        body = line[1:]
        if not body.strip() or body.startswith("  "):
            break
        words.append(body.strip())
    paragraph = " ".join(words)
    end = _SENTENCE_END.search(paragraph)
    return paragraph[: end.start() + 1] if end else paragraph


def builtin_configs() -> dict[str, str]:
    """Every built-in config: name (the file name without ``.toml``) -> description, by name."""
    folder = _folder()
    return {path.name.removesuffix(SUFFIX): describe(path.read_text(encoding="utf-8"))
            for path in sorted(folder.iterdir(), key=lambda p: p.name)
            if path.name.endswith(SUFFIX) and path.is_file()}


def resolve_config(name_or_path: str | Path) -> Path:
    """The config file that ``--config NAME_OR_PATH`` means.

    An existing file wins, so every path that worked before still does (and a local
    ``demo.toml`` shadows the built-in). Otherwise the text is a built-in name, with or without
    ``.toml`` (``demo``, ``demo.toml``). Neither: a one-line ValueError naming the built-ins.
    """
    given = Path(name_or_path)
    if given.is_file():
        return given
    text = str(name_or_path)
    name = text.removesuffix(SUFFIX)
    if name and "/" not in text and "\\" not in text:
        candidate = _folder() / f"{name}{SUFFIX}"
        if candidate.is_file():
            return candidate
    try:
        known = ", ".join(builtin_configs()) or "none"
    except ValueError as exc:
        known = str(exc)
    raise ValueError(f"no config {text!r}: not a file, and not a built-in config "
                     f"(built-in: {known})")


__all__ = ["builtin_configs", "describe", "resolve_config"]
