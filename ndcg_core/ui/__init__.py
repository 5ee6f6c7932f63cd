"""Everything that draws or serves: the top layer of ndcg_core.

What lives here:

- :mod:`.widgets`     the notebooks' marimo pieces, written once: the "Check yourself" answer
                      boxes and exercise cards, the error callout, the labels inputs, the
                      Gain and Discount options in words (the only module that imports marimo);
- :mod:`.playground`  the playground's glue: typed widget values -> every number it shows;
- :mod:`.plots`       matplotlib figures, legible on a projector;
- :mod:`.tables`      tables as Markdown text for ``mo.md``;
- :mod:`.palette`     the one colour table of the figures and the playground's HTML;
- :mod:`.lab`         the ``ndcg-lab`` command.

May import: every other layer, matplotlib, and marimo (only :mod:`.widgets` does). Importing
this package imports none of its modules, so ``import ndcg_core.ui.tables`` stays cheap.
The notebooks import their widgets, figures and tables from here.
"""
