"""The playground's figures: discount curves, gains per rank, nDCG at every cutoff."""

__all__: list[str] = []
