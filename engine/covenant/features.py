"""Connected features on the board, kept with union-find.

Every segment of every placed tile is one node. Placing a tile joins its segments to the
touching segments of its neighbours, so each root stands for a whole road, city or field:
it knows the squares it covers, its scrolls, oases or sheep, its wolves, the pieces on it
and how many of its edges are still open. A road or city is complete when no edge is open.
"""

from __future__ import annotations

from engine.covenant.events import PieceRef
from engine.covenant.geometry import Pos


class Features:
    """Union-find over segments with per-feature totals kept at the roots."""

    __slots__ = ("extras", "kind", "open", "parent", "pieces", "squares", "wolves")

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.kind: list[str] = []
        self.squares: list[set[Pos]] = []
        self.extras: list[int] = []
        self.wolves: list[int] = []
        self.open: list[int] = []
        self.pieces: list[list[PieceRef]] = []

    def add(self, kind: str, square: Pos, extras: int, wolves: int, open_edges: int) -> int:
        """A new segment on its own; returns its node."""
        node = len(self.parent)
        self.parent.append(node)
        self.kind.append(kind)
        self.squares.append({square})
        self.extras.append(extras)
        self.wolves.append(wolves)
        self.open.append(open_edges)
        self.pieces.append([])
        return node

    def add_all(self, rows: tuple[tuple[str, int, int, int], ...], square: Pos) -> None:
        """One new segment per ``(kind, extras, wolves, open_edges)`` row, as :meth:`add`."""
        for kind, extras, wolves, open_edges in rows:
            self.parent.append(len(self.parent))
            self.kind.append(kind)
            self.squares.append({square})
            self.extras.append(extras)
            self.wolves.append(wolves)
            self.open.append(open_edges)
            self.pieces.append([])

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
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        if len(self.squares[ra]) < len(self.squares[rb]):
            ra, rb = rb, ra
        self.parent[rb] = ra
        # Sets and lists are replaced, never changed, so that copies may share them.
        self.squares[ra] = self.squares[ra] | self.squares[rb]
        self.extras[ra] += self.extras[rb]
        self.wolves[ra] += self.wolves[rb]
        self.open[ra] += self.open[rb]
        if self.pieces[rb]:
            self.pieces[ra] = self.pieces[ra] + self.pieces[rb]
        # The absorbed root's totals are never read again; drop them to save memory.
        self.squares[rb] = set()
        self.pieces[rb] = []
        return ra

    def is_complete(self, root: int) -> bool:
        return self.kind[root] != "field" and self.open[root] == 0

    def copy(self) -> Features:
        """An independent copy, for search (the game's ``copy()`` calls it).

        The square sets and piece lists are never changed in place (:meth:`union` and the
        game replace them), so the copy shares them and copies only the lists that hold them.
        """
        new = Features.__new__(Features)
        new.parent = self.parent.copy()
        new.kind = self.kind.copy()
        new.squares = self.squares.copy()
        new.pieces = self.pieces.copy()
        new.extras = self.extras.copy()
        new.wolves = self.wolves.copy()
        new.open = self.open.copy()
        return new
