"""Book section 5 (stand point values), with 6.1 (unit size): what a unit and a side cost."""

from __future__ import annotations

from games.days_of_iron.data import RulesFile, UnitSpec
from games.days_of_iron.state import State


def unit_points(spec: UnitSpec, rules: RulesFile) -> int:
    """Section 6.1: stands x (class value + modifiers) (5.3, 5.4); guns per model (5.2) plus modifiers."""
    points = rules.points
    extra = sum(points.modifiers[m] for m in spec.modifiers)
    if spec.type == "engineer":
        return points.engineer
    if spec.type == "artillery":
        return spec.stands * (points.guns[spec.gun] + extra)
    return spec.stands * (points.class_points(spec.type)[spec.cls - 1] + extra)


def side_points(state: State, side: str) -> int:
    """A side's order of battle in points (5), Generals included (5.1)."""
    return sum(u.points for u in state.units if u.side == side)
