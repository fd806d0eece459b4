"""Connected features on the board, kept with union-find.

Every segment of every placed tile is one node. Placing a tile joins its segments to the
touching segments of its neighbours, so each root stands for a whole road, city or field:
it knows the squares it covers, its scrolls, oases or sheep, its wolves, the pieces on it
and how many of its edges are still open. A road or city is complete when no edge is open.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.covenant.events import PieceRef
from engine.covenant.geometry import Pos
from engine.covenant.tiles import Kind


class Columns(NamedTuple):
    """What :meth:`Features.add_all` needs of a tile's segments, column by column (one
    entry per segment), so that a tile is added with a few ``extend`` calls."""

    kinds: tuple[Kind, ...]
    extras: tuple[int, ...]
    wolves: tuple[int, ...]
    opens: tuple[int, ...]
    #: One empty piece tuple per segment.
    no_pieces: tuple[tuple[PieceRef, ...], ...]


class Features:
    """Union-find over segments with per-feature totals kept at the roots."""

    __slots__ = (
        "_fresh_from",
        "_owned",
        "extras",
        "kind",
        "open",
        "parent",
        "pieces",
        "squares",
        "wolves",
    )

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.kind: list[Kind] = []
        self.squares: list[set[Pos]] = []
        self.extras: list[int] = []
        self.wolves: list[int] = []
        self.open: list[int] = []
        self.pieces: list[tuple[PieceRef, ...]] = []
        # Square sets that no copy shares, so :meth:`union` may grow them in place: those of
        # the nodes added since the last copy, and those of the roots in ``_owned``.
        self._fresh_from = 0
        self._owned: set[int] = set()

    def add(self, kind: Kind, square: Pos, extras: int, wolves: int, open_edges: int) -> int:
        """A new segment on its own; returns its node."""
        node = len(self.parent)
        self.parent.append(node)
        self.kind.append(kind)
        self.squares.append({square})
        self.extras.append(extras)
        self.wolves.append(wolves)
        self.open.append(open_edges)
        self.pieces.append(())
        return node

    def add_all(self, columns: Columns, square: Pos) -> None:
        """One new segment per entry of ``columns``, as :meth:`add`."""
        node = len(self.parent)
        count = len(columns.kinds)
        self.parent.extend(range(node, node + count))
        self.kind.extend(columns.kinds)
        self.squares.extend([{square} for _ in range(count)])
        self.extras.extend(columns.extras)
        self.wolves.extend(columns.wolves)
        self.open.extend(columns.opens)
        self.pieces.extend(columns.no_pieces)

    def find(self, node: int) -> int:
        parent = self.parent
        root = node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:  # path compression
            parent[node], node = root, parent[node]
        return root

    def union(self, a: int, b: int) -> int:
        """Join the features of nodes ``a`` and ``b``; returns the surviving root."""
        parent = self.parent
        ra = a
        while parent[ra] != ra:
            ra = parent[ra]
        rb = b
        while parent[rb] != rb:
            rb = parent[rb]
        if ra == rb:
            return ra
        squares = self.squares
        if len(squares[ra]) < len(squares[rb]):
            ra, rb = rb, ra
        parent[rb] = ra
        if ra >= self._fresh_from or ra in self._owned:
            squares[ra] |= squares[rb]
        else:
            # Shared with a copy: replaced, and this game's own from now on.
            squares[ra] = squares[ra] | squares[rb]
            self._owned.add(ra)
        self.extras[ra] += self.extras[rb]
        self.wolves[ra] += self.wolves[rb]
        self.open[ra] += self.open[rb]
        if self.pieces[rb]:
            self.pieces[ra] = self.pieces[ra] + self.pieces[rb]
            self.pieces[rb] = ()
        # The absorbed root's totals are never read again; drop them to save memory.
        squares[rb] = set()
        return ra

    def is_complete(self, root: int) -> bool:
        return self.kind[root] != "field" and self.open[root] == 0

    def copy(self) -> Features:
        """An independent copy, for search (the game's ``copy()`` calls it).

        The square sets are shared: from now on neither game grows one in place (each
        replaces a set the first time it joins it, see :meth:`union`), so both forget what
        they owned. Piece tuples are immutable.
        """
        new = Features.__new__(Features)
        new.parent = self.parent.copy()
        new.kind = self.kind.copy()
        new.squares = self.squares.copy()
        new.pieces = self.pieces.copy()
        new.extras = self.extras.copy()
        new.wolves = self.wolves.copy()
        new.open = self.open.copy()
        new._fresh_from = self._fresh_from = len(self.parent)
        new._owned = set()
        if self._owned:
            self._owned = set()
        return new
