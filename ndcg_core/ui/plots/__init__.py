"""Figures for the notebooks, drawn with matplotlib and legible on a classroom projector.

``ranking`` gathers the playground's figures, one module each (``discount_plot``,
``gains_plot``, ``cutoff_plot``), drawn through the ``compositor`` (a cached PNG frame with the
data as SVG on top); ``concepts`` holds the figures specific to the concept chapters;
``measures`` chapter 12's (the measure family, missing judgments). Every
function returns a :class:`matplotlib.figure.Figure` built without pyplot's global
state, so figures are garbage-collected like any object.
"""

from ..palette import COLORS
from ._style import new_figure, projector_style
from .concepts import *  # noqa: F403  (each module lists its figures in __all__)
from .measures import *  # noqa: F403
from .ranking import *  # noqa: F403
from . import concepts as _concepts, measures as _measures, ranking as _ranking

__all__ = ["COLORS", "new_figure", "projector_style", *_ranking.__all__, *_concepts.__all__, *_measures.__all__]
