"""Small hand-built Views for the render tests (small scales keep golden PNGs tiny)."""

from __future__ import annotations

import dataclasses

from games.core.hexgrid import HexLayout
from games.core.view import Arrow, Board, Counter, Overlay, SideInfo, Terrain, View, Zone

SIDES = (SideInfo("red", "Red", "#c0392b"), SideInfo("blue", "Blue", "#2e6fd8"))
LAYOUT = HexLayout(orientation="flat", first_col=11, first_row=1, cols=9, rows=7, shifted="odd")


def ax(label: str, layout: HexLayout = LAYOUT) -> tuple[float, float]:
    h = layout.parse(label)
    return (float(h.q), float(h.r))


def hex_board(layout: HexLayout = LAYOUT, key: str = "hex:test-9x7") -> Board:
    terrain = {"*": "deep", "1101": "land", "1201": "land", "1102": "town", "1202": "shallow", "1301": "shoal"}
    terrain |= {"1103": "shallow", "1903": "kelp"}  # kelp: a kind no theme names (fallback colour)
    return Board(
        kind="hex",
        key=key,
        name="Test strait",
        hex_layout=layout,
        terrain=terrain,
        hexside_compass=("6", "5", "4", "3", "2", "1"),
        arrows=(Arrow("north", 0.0, "N"),),
    )


def hex_view(*, hidden_label: str = "Union", hidden_side: str = "red", face_down: bool = True, viewer: str | None = None) -> View:
    """A skirmish: a move and a shot, one face-down counter (the hidden thing under test)."""
    layout = LAYOUT
    counters = (
        Counter("hua", "Huascar", "red", ax("1404"), facing=layout.bearing(2), damage=1, damage_max=4, markers=("fire",), highlight=True),
        Counter("esm", "Esmer.", "blue", ax("1603"), facing=layout.bearing(4), damage=2, damage_max=3, markers=("grounded", "critical")),
        Counter("cov", "Cov.", "blue", ax("1705"), facing=layout.bearing(5), damage_text="MP 1"),
        Counter("hid", hidden_label, hidden_side, ax("1306"), facing=120.0, damage=1, damage_max=3, markers=("fire",), face_down=face_down),
    )
    overlays = (
        Overlay("path", (ax("1202"), ax("1303"), ax("1403"), ax("1404")), side="red"),
        Overlay("fire", (ax("1404"), ax("1603")), side="red", text="2 hits"),
    )
    zones = (Zone("Blue set-up", "blue", cells=tuple(ax(f"19{r:02d}") for r in range(1, 8))),)
    return View(
        board=hex_board(),
        viewer=viewer,
        sides=SIDES,
        counters=counters,
        overlays=overlays,
        zones=zones,
        arrows=(Arrow("wind", 225.0, "Wind", "3"),),
        status=("Turn 2: Red to act.", "Huascar fired at Esmer.: 2 hits."),
        title="Hex test",
    )


def square_view() -> View:
    board = Board(kind="square", key="square:test-8x8", name="Draughts", width=8, height=8, terrain={"d4": "rock", "e5": "land"})
    counters = (
        Counter("a", "Kent", "red", (1.0, 0.0), facing=0.0, damage=1, damage_max=3),
        Counter("b", "Essex", "red", (3.0, 1.0), facing=45.0, damage_max=3, markers=("fire",), highlight=True),
        Counter("c", "Kaiser", "blue", (2.0, 7.0), facing=180.0, damage=2, damage_max=3),
        Counter("d", "Moltke", "blue", (3.0, 5.0), facing=225.0, markers=("stopped",)),
    )
    overlays = (
        Overlay("path", ((3.0, 0.0), (3.0, 1.0)), side="red"),
        Overlay("ram", ((3.0, 1.0), (3.0, 4.0)), side="red", text="both draw"),
    )
    return View(board=board, viewer=None, sides=SIDES, counters=counters, overlays=overlays, status=("Turn 1: Essex rammed.",), title="Square test")


def table_view() -> View:
    board = Board(
        kind="table",
        key="table:test-24x18",
        name="Table",
        width=24,
        height=18,
        table_terrain=(
            Terrain("island", points=((2.0, 2.0), (7.0, 1.5), (8.0, 5.0), (3.0, 6.0))),
            Terrain("rock", centre=(14.0, 3.0), radius=0.8),
            Terrain("shoal", points=((16.0, 12.0), (22.0, 11.0), (22.0, 16.0), (17.0, 16.0))),
            Terrain("fog", centre=(5.0, 14.0), radius=3.0, label="Fog"),
        ),
    )
    counters = (
        Counter("s1", "Sloop", "red", (10.0, 9.0), facing=45.0, size=(2.5, 0.8), damage=1, damage_max=4, highlight=True),
        Counter("s2", "Fluyt", "red", (8.0, 12.0), facing=90.0, size=(3.0, 1.0)),
        Counter("s3", "Swift", "blue", (16.0, 7.0), facing=250.0, size=(2.5, 0.8), markers=("reload",)),
        Counter("s4", "Hind", "blue", (18.0, 9.0), facing=200.0, size=(2.5, 0.8), damage=3, damage_max=4, markers=("struck",)),
    )
    overlays = (
        Overlay("ring", ((10.0, 9.0),), radius=6.0, text='Musket 6"'),
        Overlay("arc", ((10.0, 9.0), (17.0, 5.0), (19.0, 10.0)), side="red", text="broadside"),
        Overlay("fire", ((10.0, 9.0), (16.0, 7.0)), side="red", text="1 hit"),
    )
    return View(
        board=board,
        viewer=None,
        sides=SIDES,
        counters=counters,
        overlays=overlays,
        arrows=(Arrow("wind", 300.0, "Wind", "fresh"),),
        status=("Turn 3: Sloop fired.",),
        title="Table test",
    )


def kinds_view() -> View:
    """The table scene plus a wake astern of each ship that moved and a landing party ashore."""
    view = table_view()
    extra = (
        Counter("s1-wake", "wake", "red", (9.0, 10.0), facing=45.0, kind="wake", size=(0.6, 0.8)),
        Counter("s3-wake", "wake", "blue", (17.2, 7.4), facing=250.0, kind="wake", size=(0.6, 0.8)),
        Counter("s2-landing", "Fluyt landing party", "red", (5.0, 4.0), kind="landing"),
    )
    return dataclasses.replace(view, counters=extra + view.counters, title="Counter kinds")


def long_names_view() -> View:
    """Names too long for one line on a square, as Ironclad Draughts' full ship names are."""
    view = square_view()
    counters = (
        Counter("a", "Affondatore", "red", (1.0, 0.0), facing=0.0, damage_text="11/12"),
        Counter("b", "Almirante Cochrane", "red", (3.0, 1.0), facing=45.0, damage=1, damage_max=3),
        Counter("c", "Re di Portogallo", "blue", (5.0, 5.0), facing=90.0, damage_text="16/16"),
        Counter("d", "Erzherzog Ferdinand Max", "blue", (2.0, 6.0), facing=180.0, markers=("stopped",)),
    )
    return dataclasses.replace(view, counters=counters, overlays=(), title="Long names")


TERRAIN_KINDS = (
    # Days of Iron's section-15 kinds (data/days_of_iron/reference/sheets/terrain.toml) and the
    # hills, rivers and crossings being added to it
    "light-wood", "heavy-wood", "urban", "low-hill", "high-hill", "swamp", "field", "wall", "road", "stream", "river", "ford", "bridge", "open",
)


def terrain_view() -> View:
    """A measured table with a piece of every land terrain kind, a river with a ford and a bridge
    over it (listed before the river: the crossing must still lie on top), and a road."""
    pieces = (
        Terrain("land", points=((0.0, 0.0), (48.0, 0.0), (48.0, 24.0), (0.0, 24.0)), label='48" x 24" table'),
        Terrain("bridge", points=((30.0, 9.0), (33.0, 9.0), (33.0, 15.0), (30.0, 15.0)), label="Bridge"),
        Terrain("ford", points=((12.0, 10.0), (15.0, 10.0), (15.0, 14.0), (12.0, 14.0)), label="Ford"),
        Terrain("river", points=((0.0, 10.5), (48.0, 10.5), (48.0, 13.5), (0.0, 13.5)), label="Saar"),
        Terrain("light-wood", points=((1.0, 1.0), (9.0, 1.0), (9.0, 8.0), (1.0, 8.0)), label="Light wood"),
        Terrain("heavy-wood", points=((10.0, 1.0), (18.0, 1.0), (18.0, 8.0), (10.0, 8.0)), label="Heavy wood"),
        Terrain("urban", points=((19.0, 1.0), (26.0, 1.0), (26.0, 8.0), (19.0, 8.0)), label="Village"),
        Terrain("low-hill", points=((27.0, 1.0), (36.0, 2.0), (35.0, 8.0), (28.0, 7.5)), label="Low hill"),
        Terrain("high-hill", points=((37.0, 1.0), (47.0, 1.0), (46.0, 8.0), (38.0, 8.0)), label="High hill"),
        Terrain("swamp", points=((1.0, 16.0), (9.0, 16.0), (9.0, 23.0), (1.0, 23.0)), label="Marsh"),
        Terrain("field", points=((10.0, 16.0), (18.0, 16.0), (18.0, 23.0), (10.0, 23.0)), label="Wheat"),
        Terrain("wall", points=((20.0, 17.0), (28.0, 17.0), (28.0, 18.0), (20.0, 18.0)), label="Wall"),
        Terrain("road", points=((31.0, 0.0), (32.0, 0.0), (32.0, 24.0), (31.0, 24.0)), label="Road"),
        Terrain("stream", points=((36.0, 15.0), (47.0, 20.0), (47.0, 21.0), (36.0, 16.0)), label="Brook"),
        Terrain("open", points=((20.0, 20.0), (28.0, 20.0), (28.0, 23.0), (20.0, 23.0)), label="Open"),
    )
    board = Board(kind="table", key="table:terrain-48x24", name="Terrain", width=48, height=24, table_terrain=pieces)
    units = (Counter("u1", "1st Foot", "red", (5.0, 4.5), facing=0.0, size=(1.0, 4.0), kind="unit"),
             Counter("u2", "2nd Horse", "blue", (22.5, 4.5), facing=180.0, size=(2.0, 3.0), kind="unit"))
    return View(board=board, viewer=None, sides=SIDES, counters=units, status=("Turn 1",), title="Terrain kinds")
