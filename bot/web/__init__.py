"""The web companion: read-only pages of each game (board, status, log, replay, live updates).

``bot/web/server.py`` serves them (``python -m bot web``, or in the bot's process when
``WARGAME_WEB_PORT`` is set); ``views.py`` builds what each reader may see through the table
service; ``links.py`` signs the per-seat links ``/game web`` (``command.py``) hands out.
"""
