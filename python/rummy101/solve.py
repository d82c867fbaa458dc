"""Public solvers (filled in by the solver work)."""

__all__: list[str] = []
