"""Ironclad Draughts (book 004) checked against the book's own sentences, read before the engine
(issue 21's second reading)."""
