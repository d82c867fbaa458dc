"""Public meld logic (filled in by the melds work)."""

__all__: list[str] = []
