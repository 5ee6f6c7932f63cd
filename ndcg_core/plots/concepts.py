"""Figures for the concept chapters (02 gains, 03 discounts, 04 the ideal list)."""

__all__: list[str] = []
