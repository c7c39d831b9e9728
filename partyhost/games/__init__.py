"""Game rules, one module per game, all behind :class:`partyhost.games.base.Game`."""
