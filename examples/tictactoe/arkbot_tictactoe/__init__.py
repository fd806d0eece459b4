"""A game of arkbot from outside its tree: tic-tac-toe, installed through the ``arkbot.games``
entry points (see this distribution's README)."""
