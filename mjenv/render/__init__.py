"""Text for people: the table from one seat's view, and the reports the command line prints.

``mjenv.render.view``
    :func:`render_view`, the table as one seat sees it (the env's ``render_mode="ansi"`` and
    ``mjenv play``); it reads a seat view only, so a rendering never shows a hidden tile.
``mjenv.render.fans``, ``mjenv.render.hand``, ``mjenv.render.replay``
    the reports of ``mjenv fan``, ``mjenv hand`` and ``mjenv replay``: plain functions from
    results to text, kept apart from argument parsing so they can be used and tested alone.
``mjenv.render.text``
    terminal widths (CJK characters take two columns) and aligned tables.
"""

from mjenv.render.view import render_view

__all__ = ["render_view"]
