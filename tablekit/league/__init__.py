"""The club's league: every finished game in a SQLite file, and the season table."""
