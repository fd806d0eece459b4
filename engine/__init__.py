"""Pure game engines for arkbot: no I/O, no clock, no global random state.

Each game is a pure function of its options, seats, seed and the actions applied to it.
"""
