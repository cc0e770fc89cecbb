"""A read-only web page on the local network: the live scoreboard, the evening, the league."""
