"""Colours and sizes: sea blues, land greens and tans, one place to restyle every board."""

from __future__ import annotations

import colorsys
import hashlib

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

MARGIN: RGB = (21, 32, 43)  # around the board, dark so the sea reads as the playing area
MARGIN_TEXT: RGB = (196, 208, 218)
STRIP: RGB = (30, 36, 44)
STRIP_TEXT: RGB = (232, 236, 240)
STRIP_DIM: RGB = (160, 172, 184)
TITLE_TEXT: RGB = (255, 255, 255)
PRIVATE_TEXT: RGB = (255, 214, 102)
OUTLINE: RGB = (18, 22, 28)
HIGHLIGHT: RGB = (255, 221, 51)
FACE_DOWN: RGB = (128, 134, 142)
NEUTRAL_SIDE: RGB = (200, 200, 200)
# damage pips: white = hits left, black = hits taken (red would vanish on a red side)
PIP_LEFT: RGB = (250, 250, 250)
PIP_HIT: RGB = (16, 16, 16)
PIP_HIT_SEA: RGB = (230, 40, 40)  # table bases put their pips on the sea, where black vanishes

TERRAIN: dict[str, RGB] = {
    "deep": (30, 86, 134),
    "sea": (30, 86, 134),
    "open": (30, 86, 134),
    "shallow": (62, 136, 176),
    "shoal": (148, 196, 196),
    "reef": (150, 170, 150),
    "rock": (112, 110, 104),
    "land": (122, 160, 88),
    "coast": (214, 196, 140),
    "beach": (222, 204, 150),
    "town": (198, 168, 124),
    "port": (198, 168, 124),
    "fort": (150, 140, 128),
    "island": (122, 160, 88),
    "fog": (226, 232, 238),
    "off": (21, 32, 43),
}
LAND_KINDS = frozenset({"land", "town", "port", "fort", "island", "coast", "beach", "rock"})
SQUARE_LIGHT: RGB = (44, 104, 150)
SQUARE_DARK: RGB = (30, 82, 126)
TABLE_SEA: RGB = (36, 94, 138)
SAND: RGB = (226, 208, 152)

MARKER_STYLE: dict[str, tuple[str, RGB]] = {
    # marker -> (badge text, badge colour); the status strip prints a key for the ones in view
    "grounded": ("G", (150, 104, 56)),
    "fire": ("F", (242, 110, 20)),
    "critical": ("!", (214, 40, 40)),
    "captured": ("C", (120, 60, 160)),
    "boarding": ("B", (190, 40, 120)),
    "crippled": ("X", (120, 20, 20)),
    "shaken": ("S", (200, 160, 0)),
    "reload": ("R", (40, 120, 200)),
    "struck": ("St", (240, 240, 240)),
    "sunk": ("\u2020", (20, 20, 20)),
    "off": ("\u2192", (90, 90, 90)),
    "broken-off": ("\u21a9", (90, 90, 90)),
    "stopped": ("\u25a0", (70, 70, 70)),
    "flag": ("\u2691", (250, 250, 250)),
    # Days of Iron's measured table
    "routing": ("Rt", (226, 76, 40)),
    "hidden": ("H", (112, 96, 160)),
}

TERRAIN_TEXT: RGB = (255, 244, 214)  # terrain names on a table: cream, unlike the white unit names
LEADER: RGB = (235, 240, 245)  # the line from a table name standing off its base to the base
OVERLAY_FIRE: RGB = (255, 72, 72)
OVERLAY_RAM: RGB = (255, 150, 30)
OVERLAY_RING: RGB = (240, 244, 248)
ARROW_COLOURS: dict[str, RGB] = {"north": (236, 236, 236), "wind": (170, 214, 255), "current": (110, 230, 200)}


def hex_to_rgb(colour: str, default: RGB = NEUTRAL_SIDE) -> RGB:
    """'#rrggbb' (or 'rrggbb') to a tuple; anything unreadable falls back so a bad colour never crashes a render."""
    c = colour.strip().lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    if len(c) != 6:
        return default
    try:
        return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))
    except ValueError:
        return default


def rgb_hex(c: RGB) -> str:
    return f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}"


def fallback_colour(name: str) -> RGB:
    """A stable muted colour for a terrain kind no theme entry names (same name, same colour)."""
    h = hashlib.sha256(name.encode()).digest()
    r, g, b = colorsys.hsv_to_rgb(h[0] / 255.0, 0.35, 0.55 + h[1] / 255.0 * 0.2)
    return (round(r * 255), round(g * 255), round(b * 255))


def terrain_colour(kind: str) -> RGB:
    return TERRAIN.get(kind, fallback_colour(kind))


def luminance(c: RGB) -> float:
    return (0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]) / 255.0


def ink_on(c: RGB) -> RGB:
    """Text colour that reads on a background colour."""
    return (20, 24, 30) if luminance(c) > 0.6 else (255, 255, 255)


def vivid(c: RGB) -> RGB:
    """A side's colour made bright and saturated, same hue: a thin line in it (a shot) reads on sea
    and land alike and still says whose it is, like the side's counters and its key swatch. A grey
    side stays grey, only lighter."""
    h, _, s = colorsys.rgb_to_hls(c[0] / 255.0, c[1] / 255.0, c[2] / 255.0)
    r, g, b = colorsys.hls_to_rgb(h, 0.78, max(s, 0.9) if s > 0.1 else s)
    return (round(r * 255), round(g * 255), round(b * 255))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))

