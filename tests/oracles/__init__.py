"""Independent rule oracles, one module per variant, shared by the random-play tests and the soak
(``tools/soak.py``). An oracle re-derives from the rules what the engine must do — piece
conservation, round scores, candidate actions to probe — without calling the engine's own rule
code, so that a bug in the engine cannot hide behind itself.

Each variant module provides:

* ``RULES``: rules strings that together cover every option of the variant;
* ``check_pieces(s)``: conservation and no piece in two places, at any step;
* ``universe(rng, s)``: candidate actions, legal or not, for legal ⇔ accepted probes;
* ``check_step(before, action, after)``: what one applied action must have done (round scores
  recomputed when the action ended a round);
* ``policies``: named random policies that reach the variant's endings.

:mod:`.generic` holds the checks every variant shares (probes, copies, records, hidden
information).
"""
