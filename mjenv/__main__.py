"""``python -m mjenv``: the same as the ``mjenv`` command."""

from mjenv.cli import main

raise SystemExit(main())
