"""``python -m mjenv.fans``: the fan calculator as a JSON Lines stream (:mod:`mjenv.fans.jsonl`)."""

from mjenv.fans.jsonl import main

raise SystemExit(main())
