"""The game-file commands' helpers, under a name other apps may import (the
pots' command reads its files as Call Break's do); they live in
commands/_gamefiles.py, where Django does not take them for a command."""

from .commands._gamefiles import GameFileCommand, add_arguments, settle_file

__all__ = ["GameFileCommand", "add_arguments", "settle_file"]
