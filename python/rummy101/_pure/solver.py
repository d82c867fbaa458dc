"""Pure-Python twin of cpp/src/solver.cpp (filled in by the solver work)."""

__all__: list[str] = []
