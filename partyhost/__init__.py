"""partyhost: a LAN game-night host (Flask-SocketIO) for one laptop, a TV and phones."""

__version__ = "0.1.0"
