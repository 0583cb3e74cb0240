"""A fixed 256-colour palette per board: quantizing to a known palette costs ~1 ms where an
adaptive quantizer costs ~8 ms on a 1000 px board, and colours stay the same from move to move.

The palette is the background's own colours (adaptive, once, cached) plus every colour the
renderer draws on top of it (side colours, markers, overlays, text) and their antialiasing blends.
"""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image

from render import theme


def _blends(c: theme.RGB, others: Iterable[theme.RGB], steps: tuple[float, ...]) -> list[theme.RGB]:
    out = [c]
    for o in others:
        out.extend(theme.mix(c, o, t) for t in steps)
    return out


def drawn_colours(side_colours: Iterable[theme.RGB]) -> list[theme.RGB]:
    """Colours drawn over the background, with the blends their soft edges produce."""
    sea = theme.TERRAIN["deep"]
    out: list[theme.RGB] = []
    for text in (theme.STRIP_TEXT, theme.STRIP_DIM, theme.TITLE_TEXT, theme.PRIVATE_TEXT, theme.MARGIN_TEXT):
        out.extend(_blends(text, [theme.STRIP], (0.25, 0.5, 0.75)))
    out.append(theme.STRIP)
    fixed = [
        theme.OUTLINE,
        (255, 255, 255),
        (250, 250, 250),
        theme.PIP_HIT,
        theme.PIP_HIT_SEA,
        (44, 46, 50),
        (255, 235, 200),
        theme.HIGHLIGHT,
        theme.TERRAIN_TEXT,
        theme.LEADER,
        theme.FACE_DOWN,
        theme.OVERLAY_FIRE,
        theme.OVERLAY_RAM,
        theme.OVERLAY_RING,
        *(style[1] for style in theme.MARKER_STYLE.values()),
        *theme.ARROW_COLOURS.values(),
    ]
    for c in fixed:
        out.extend(_blends(c, [sea, theme.OUTLINE], (0.5,)))
    for c in side_colours:
        out.extend(_blends(c, [(255, 255, 255)], (0.3, 0.6, 0.75)))
        out.extend(_blends(c, [theme.OUTLINE, sea], (0.5,))[1:])
        out.append(theme.mix(sea, c, 0.27))  # zone tint
        out.extend(_blends(theme.vivid(c), [theme.OUTLINE, sea], (0.5,)))  # its shots (overlays)
    seen: dict[theme.RGB, None] = {}
    for c in out:
        seen.setdefault(c, None)
    return list(seen)[:160]


def build_palette(background: Image.Image, side_colours: Iterable[theme.RGB]) -> Image.Image:
    """A "P" image holding the palette to quantize renders of this board to."""
    extra = drawn_colours(side_colours)
    budget = 256 - len(extra)
    q = background.convert("RGB").quantize(colors=budget, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = q.getpalette() or []
    used = sorted(i for _, i in (q.getcolors(256) or []) if isinstance(i, int))
    colours: list[int] = []
    for i in used:
        colours.extend(flat[3 * i : 3 * i + 3])
    for c in extra:
        colours.extend(c)
    colours.extend([0, 0, 0] * (256 - len(colours) // 3))
    pal = Image.new("P", (1, 1))
    pal.putpalette(colours[: 256 * 3])
    return pal
