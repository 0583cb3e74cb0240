"""The application: table service, SQLite store, console and Discord front ends."""
