"""The club: tables publish their live state and finished games to an MQTT broker
(mosquitto), and one board records every game once in the club's league (docs/club.md)."""
