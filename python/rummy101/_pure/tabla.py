"""Pure-Python twin of cpp/src/tabla.cpp (filled in by the tabla work)."""

__all__: list[str] = []
