"""Game record formats: Tenhou mjlog import, the agari.jsonl data set, exports."""
