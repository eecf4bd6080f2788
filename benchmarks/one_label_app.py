"""The bare baseline of the kiosk's first frame: a Kivy app whose whole window is one Label.

    python benchmarks/one_label_app.py WIDTHxHEIGHT

Prints ``{"first_frame_wall": <time.time()>}`` when the window first flips a frame with the Label on
it, then stops. Configured like the kiosk's window (size, no argv, no config file, no log files) and
nothing else: this is what any Kivy app pays to put something on the screen.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONFIG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")

from kivy.config import Config  # noqa: E402 - the environment above must be set first

width, height = (sys.argv[1] if len(sys.argv) > 1 else "800x480").split("x")
Config.set("graphics", "width", width)
Config.set("graphics", "height", height)

from kivy.app import App  # noqa: E402 - after the window's size is set
from kivy.core.window import Window  # noqa: E402
from kivy.uix.label import Label  # noqa: E402


class OneLabelApp(App):
    def build(self) -> Label:
        return Label(text="Courtside Companion", font_size="22sp")

    def on_start(self) -> None:
        Window.bind(on_flip=self._flipped)

    def _flipped(self, *_args: Any) -> None:
        Window.unbind(on_flip=self._flipped)
        print(json.dumps({"first_frame_wall": time.time()}), flush=True)
        self.stop()


if __name__ == "__main__":
    OneLabelApp().run()
