"""The fault harness: tablekit made to fail on purpose, beside the runtime, never in its wheel.

Each module breaks one thing the appliance meets and counts what held; the tests
(``tests/test_faults.py``, ``tests/test_journal.py``, ``tests/test_write_faults.py`` and
others) and ``benchmarks/faults.py`` run them from the repository root. tablekit never
imports this package (an import-linter contract in ``pyproject.toml``). Modules:

- :mod:`harness.power_cut`: a real process killed at random while it writes its journal;
- :mod:`harness.journal_damage`: a journal damaged on purpose, one case at a time;
- :mod:`harness.bit_flips`: single bits flipped at random in a journal;
- :mod:`harness.button_mash`: random presses on every button through gpiozero's mock pins;
- :mod:`harness.camera_faults`: a camera that fails while a game plays on the simulated
  table;
- :mod:`harness.input_fuzz`: fuzzed rules files and rosters, and long names on every screen;
- :mod:`harness.write_faults`: every write the appliance makes, failing.
"""
