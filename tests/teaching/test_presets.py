"""ndcg_core.teaching.presets: each preset's configuration and what the playground's widgets open with.

What every preset shows in the playground is tested with the playground's glue
(tests/ui/test_playground_glue.py); here: the widget values read from the configuration.
"""

from __future__ import annotations

import pytest

import ndcg_core as nc
from ndcg_core.teaching.presets import (
    DEFAULT_BASE,
    DEFAULT_GAIN_TABLE,
    PRESETS,
    Preset,
    preset,
)


@pytest.mark.parametrize("p", PRESETS, ids=[p.key for p in PRESETS])
def test_every_preset_holds_a_configuration_the_widgets_can_show(p: Preset) -> None:
    assert isinstance(p.config, nc.NDCGConfig)
    assert (p.gain, p.discount, p.k, p.unjudged, p.ideal) == (
        p.config.gain, p.config.discount, p.config.k, p.config.unjudged, p.config.ideal)
    assert p.gain_table == DEFAULT_GAIN_TABLE and p.base == DEFAULT_BASE


def test_a_table_gain_and_a_base_are_shown_in_their_boxes() -> None:
    custom = Preset("t", "T", "1, 0", "", "note",
                    nc.NDCGConfig(k=3, gain={0: 0, 1: 1.5, 2: 3}, discount="jarvelin_kekalainen", base=3))
    assert (custom.gain, custom.gain_table, custom.discount, custom.base) == (
        "table", "0:0, 1:1.5, 2:3", "jarvelin_kekalainen", 3)


def test_the_lecture_preset_opens_on_the_lecture_configuration() -> None:
    lecture = preset("lecture")
    assert lecture.config == nc.NDCGConfig(k=5)
    assert round(lecture.config.score(nc.parse_labels(lecture.labels), judgments=[2, 1, 1]).ndcg, 4) == 0.7763
