"""ndcg_core.teaching.exercises.model: a Setting carries its configuration as an NDCGConfig."""

from __future__ import annotations

import pytest

import ndcg_core as nc
from ndcg_core.teaching.exercises import Setting


def test_a_setting_reads_its_configuration():
    config = nc.NDCGConfig(k=3, gain={0: 0, 1: 1, 2: 3}, discount="log", base=10, unjudged="condense")
    s = Setting(labels=(1, None, 2), judgments=(2, 1, 1), config=config)
    assert (s.k, s.gain, s.gain_table, s.discount, s.base, s.unjudged, s.ideal) == (
        3, "table", ((0.0, 0.0), (1.0, 1.0), (2.0, 3.0)), "log", 10, "condense", "judgments")
    assert s.kwargs() == {"gain": {0: 0, 1: 1, 2: 3}, "discount": "log", "base": 10}
    assert s.gain_phrase() == nc.resolve_gain(config.gain).describe


def test_with_config_changes_only_the_configuration():
    s = Setting(labels=(1, 0, 2), missed=(2,), config=nc.NDCGConfig(k=3))
    other = s.with_config(gain="exponential", k=2)
    assert (other.labels, other.missed, other.config) == (s.labels, s.missed, nc.NDCGConfig(k=2, gain="exponential"))
    assert s.config == nc.NDCGConfig(k=3)  # frozen: the original is unchanged
    with pytest.raises(ValueError, match=r"k must be a positive int"):
        s.with_config(k=0)


def test_without_judgments_the_ideal_comes_from_the_list():
    assert Setting(labels=(3, 0, 0)).ideal == "list"
    assert Setting(labels=(3, 0, 0), missed=()).ideal == "judgments"
    assert Setting(labels=(3, 0, 0), missed=(3, 2)).all_judgments == (3, 3, 2)
    assert Setting(labels=(3, 0, 0), missed=(3, 2), config=nc.NDCGConfig(ideal="list")).ideal_judgments is None


def test_a_setting_needs_an_ndcg_config():
    with pytest.raises(TypeError, match=r"config must be an NDCGConfig; got 'linear' \(str\)"):
        Setting(labels=(1, 0), config="linear")  # type: ignore[arg-type]
