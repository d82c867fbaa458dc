"""Pure-Python twin of cpp/src/melds.cpp (filled in by the melds work)."""

__all__: list[str] = []
