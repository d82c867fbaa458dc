"""One package per playable variant (``rummy101``, ``remi``, ``classic``), each implementing
:class:`rummy101.game.engine.Engine`. Nothing here imports them: :func:`~rummy101.game.engine.engine_for`
finds a variant's package by its name."""
