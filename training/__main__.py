"""``python -m training COMMAND [OPTIONS]``: the one entry point of tablekit's model training.

``python -m training COMMAND --help`` lists a command's options; the package's docstring
(:mod:`training`) says what each command makes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from training import card, photo, photo_classifier, red_fives, refiner, retrain, table

Runner = Callable[[argparse.Namespace], None]
COMMANDS: dict[str, tuple[str, str | None, Callable[[argparse.ArgumentParser], None], Runner]] = {
    "pack": ("the photo pack: training photos, boxes and tile art in one file", photo.__doc__,
             photo.add_pack_arguments, photo.pack),
    "photo": ("the photo detector from scratch and the first classifier", photo.__doc__,
              photo.add_fit_arguments, photo.fit),
    "tune-detector": ("an exported photo detector trained further", photo.__doc__,
                      photo.add_tune_arguments, photo.tune_detector),
    "table": ("the table detector from scratch and the classifier fine-tuned on sim rigs",
              table.__doc__, table.add_arguments, table.run),
    "retrain": ("all three models in one run, checked with tablekit's readers",
                retrain.__doc__, retrain.add_arguments, retrain.run),
    "red-fives": ("red_fives.json: the red-five check fitted on sim rigs' fives",
                  red_fives.__doc__, red_fives.add_arguments, red_fives.run),
    "refiner": ("box_refiner.onnx: the photo detector's boxes put onto the tiles' edges",
                refiner.__doc__, refiner.add_arguments, refiner.run),
    "photo-classifier": ("photo_classifier.onnx: the classifier fine-tuned for the photo path",
                         photo_classifier.__doc__, photo_classifier.add_arguments,
                         photo_classifier.run),
    "card": ("card-draft.md: the model card's figures and commands from the logs",
             card.__doc__, card.add_arguments, card.run),
}


def parser() -> argparse.ArgumentParser:
    """The entry point's parser: one subcommand per :data:`COMMANDS` entry."""
    top = argparse.ArgumentParser(prog="python -m training",
                                  description=sys.modules["training"].__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (summary, doc, add_arguments, run) in COMMANDS.items():
        command = sub.add_parser(name, help=summary, description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
        add_arguments(command)
        command.set_defaults(run=run)
    return top


def main(argv: list[str] | None = None) -> None:
    """Parse ``argv`` (the command line when None) and run its command."""
    args = parser().parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main()
