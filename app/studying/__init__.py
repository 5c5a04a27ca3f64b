"""Studying the collection: the session engine, its summary, past sessions and stats, which
read and write the store (the rules they apply, card state and scheduling, are in app.study)."""
