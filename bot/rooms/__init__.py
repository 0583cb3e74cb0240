"""The table service's rooms: each command's handler lives in the room of its concern.

``bot/service.py`` is the facade both front ends call; ``bot/commands.py`` binds every command to
its handler here by reference. The rooms share a ``Table`` (bot/rooms/context.py: the store, the
clocks and the decoded-state cache) and pure helpers (``common``, ``seats``, ``delivery``); no room
calls another room.
"""
