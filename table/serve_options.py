"""The options of ``companion serve``, apart from the service so ``companion --help`` stays light."""

from __future__ import annotations

import argparse


def build_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--sim", action="store_true", help="simulated hardware (the libraries' mocks)")
    parser.add_argument("--config", help="hardware config TOML (default: ~/.config or /etc/companion)")
    parser.add_argument("--socket", help="Unix socket path (default: $COMPANION_SOCKET or the runtime dir)")
    parser.add_argument("--no-hardware", action="store_true",
                        help="socket and store only: no buttons, tray or displays at all")
    parser.add_argument("--media-root", action="append", metavar="DIR",
                        help="look for USB sticks only in DIR (each folder in it is one; repeatable; "
                             "default: mounted folders under /media, /run/media or $COMPANION_MEDIA_ROOTS)")
    return parser
