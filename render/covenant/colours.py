"""The colours of The Ark of the Covenant's land, pieces' highlights and choices.

They sit below every drawing module (icons, tile art, board, pictures) and below the shared
PNG palette (:mod:`render.covenant.palette`), which is learnt from drawings of them.
"""

from __future__ import annotations

from render.style import RGB

# Warm Holy-Land palette: olive fields, sandstone cities, dusty roads.
FIELD: RGB = (190, 183, 108)
FIELD_DARK: RGB = (160, 152, 86)
ROAD: RGB = (247, 238, 214)
ROAD_EDGE: RGB = (128, 104, 72)
CITY: RGB = (226, 160, 98)
CITY_ROOF: RGB = (196, 112, 68)
WALL: RGB = (112, 66, 36)
WALL_TOP: RGB = (150, 98, 58)
TEMPLE: RGB = (252, 247, 234)
WATER: RGB = (52, 140, 205)
PALM: RGB = (38, 122, 52)
SCROLL: RGB = (255, 244, 210)
SHEEP: RGB = (252, 252, 248)
WOLF: RGB = (92, 92, 100)
LAST_TILE: RGB = (214, 40, 40)
#: What a player may choose: the numbered squares, the lettered spots, the tile previewed.
CHOICE: RGB = (40, 110, 200)
