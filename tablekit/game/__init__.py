"""The game engine: events, table state, the pure reducer, journal and undo.

Pure Python: nothing here imports OpenCV, GPIO or pygame.
"""
