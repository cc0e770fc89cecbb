"""The appliance's main loop and the one wiring of a table (:mod:`tablekit.app.loop`:
:class:`~tablekit.app.loop.App`, :func:`~tablekit.app.loop.build_table`). Picking the devices
(real or simulated) is the commands' (:mod:`tablekit.commands.devices`)."""
