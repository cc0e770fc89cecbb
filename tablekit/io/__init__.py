"""Inputs from the table: seat buttons (gpiozero), the keyboard stand-in, the pin map."""
