"""Pillow pictures of engine state, one package per game (``render.covenant``, ...).

What every game's pictures share lives here: the fonts, the colours and marks of the seats,
text layout that never cuts a word (:mod:`render.style`, :mod:`render.marks`) and the
catalogues every word comes from (:mod:`render.i18n`). A picture function is a pure function
from (a view of) a game to PNG bytes, safe to call from worker threads and processes.
"""
