"""Remi closing on the rack (filled in by the tabla work)."""

__all__: list[str] = []
