"""The ``tablekit`` subcommands, one module each (``add_parser`` + ``run``)."""
