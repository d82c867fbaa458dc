"""Game engines, bots and simulation (filled in by the game work)."""

__all__: list[str] = []
