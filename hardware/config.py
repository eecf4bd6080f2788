"""The table's hardware configuration: one TOML file read into frozen dataclasses.

The file is the first of ``--config``, ``~/.config/companion/config.toml``,
``/etc/companion/config.toml`` that exists; with none, the built-in defaults (the wiring in
docs/hardware.md) apply. Every key is documented in ``config.example.toml`` at the repo root.
Anything wrong (an unknown key, a pin used twice, an unknown display type, a bad value) is refused
with a ``ConfigError`` naming the file, the key and the reason, before any pin is touched.

>>> cfg = parse_config({"buttons": {"pins": {"HOME": 12}}}, source="example")
>>> cfg.buttons.pins["HOME"], cfg.buttons.hold_s["UNDO"]
(12, 1.0)
>>> parse_config({"buttons": {"pins": {"HOME": 6}}}, source="t.toml")
Traceback (most recent call last):
...
hardware.config.ConfigError: t.toml: buttons.pins.AWAY: BCM pin 6 is already used by buttons.pins.HOME
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_PATHS = (Path("~/.config/companion/config.toml"), Path("/etc/companion/config.toml"))

DEFAULT_BUTTON_PINS = {"HOME": 5, "AWAY": 6, "CONFIRM": 13, "UNDO": 19, "NEXT": 26, "MENU": 21}
DEFAULT_HOLD_S = {"UNDO": 1.0, "MENU": 1.0}  # UNDO held undoes, MENU held redoes

I2C_TYPES = ("ssd1306", "sh1106", "ssd1309")
SPI_TYPES = ("ssd1322",)
DISPLAY_SIZES = {"ssd1306": (128, 64), "sh1106": (128, 64), "ssd1309": (128, 64), "ssd1322": (256, 64)}

# Pins a bus owns once a display uses it: a button wired there would fight the bus.
I2C_BUS_PINS = {1: (2, 3), 0: (0, 1)}
SPI_BUS_PINS = {0: (9, 10, 11), 1: (19, 20, 21)}
SPI_CE_PINS = {(0, 0): 8, (0, 1): 7, (1, 0): 18, (1, 1): 17, (1, 2): 16}


class ConfigError(ValueError):
    """The configuration file is wrong; the message names the file, the key and the reason."""


@dataclass(frozen=True)
class ButtonsConfig:
    """Buttons by role: BCM pin per role, hold time per role (roles without one have no hold)."""

    pins: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_BUTTON_PINS))
    hold_s: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_HOLD_S))
    debounce_ms: float = 20.0
    tie_window_ms: float = 150.0


@dataclass(frozen=True)
class EncoderConfig:
    """A two-pin quadrature encoder with an optional push switch (``push=None``)."""

    a: int = 17
    b: int = 27
    push: int | None = 22
    push_hold_s: float = 1.0


@dataclass(frozen=True)
class TrayConfig:
    """The serial dice tray: a device path or any pyserial URL (``loop://``, ``socket://...``)."""

    port: str = "/dev/ttyACM0"
    baud: int = 115200


@dataclass(frozen=True)
class DisplayConfig:
    """One OLED. I2C types use ``bus``/``address``; SPI types use ``port``/``device``/``dc``/``reset``.

    ``side`` says which side it faces (0 home, 1 away, ``None`` both): a display facing the away
    side shows the away score on the left, so each side reads its own score first.
    """

    name: str
    type: str = "ssd1306"
    bus: int = 1
    address: int = 0x3C
    port: int = 0
    device: int = 0
    dc: int = 24
    reset: int = 25
    rotate: int = 0
    side: int | None = None
    partial: bool = True

    @property
    def size(self) -> tuple[int, int]:
        return DISPLAY_SIZES[self.type]

    @property
    def is_spi(self) -> bool:
        return self.type in SPI_TYPES


@dataclass(frozen=True)
class LedConfig:
    """Optional LEDs, each ``(home, away)`` BCM pins, and an optional buzzer pin."""

    possession: tuple[int, int] | None = None
    bonus: tuple[int, int] | None = None
    buzzer: int | None = None
    buzzer_s: float = 1.0


@dataclass(frozen=True)
class BurnInConfig:
    """OLED burn-in care: dim after ``idle_dim_s`` without a change, shift the layout now and then."""

    idle_dim_s: float = 300.0
    pixel_shift_minutes: float = 5.0
    contrast: int = 0xCF
    dim_contrast: int = 0x10


@dataclass(frozen=True)
class HardwareConfig:
    """The whole table: where it came from (``source``) and each part's settings."""

    source: str = "built-in defaults"
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    encoder: EncoderConfig | None = field(default_factory=EncoderConfig)
    tray: TrayConfig | None = field(default_factory=TrayConfig)
    displays: tuple[DisplayConfig, ...] = (DisplayConfig(name="main"),)
    leds: LedConfig = field(default_factory=LedConfig)
    burn_in: BurnInConfig = field(default_factory=BurnInConfig)


def find_config(explicit: str | Path | None = None) -> Path | None:
    """The file to read: ``explicit`` if given (it must exist), else the first default that exists."""
    if explicit is not None:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise ConfigError(f"{path}: no such file")
        return path
    for candidate in DEFAULT_PATHS:
        path = candidate.expanduser()
        if path.is_file():
            return path
    return None


def load_config(explicit: str | Path | None = None) -> HardwareConfig:
    """Read and check the configuration (see ``find_config`` for which file); defaults if none."""
    path = find_config(explicit)
    if path is None:
        return HardwareConfig()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    return parse_config(raw, source=str(path))


class _Reader:
    """Checks one table's keys and values, naming ``file: dotted.key: reason`` when refusing."""

    def __init__(self, source: str, table: Mapping[str, Any], prefix: str, allowed: Sequence[str]):
        self.source, self.table, self.prefix = source, table, prefix
        if not isinstance(table, Mapping):
            raise self.error("", f"expected a table, got {type(table).__name__}")
        for key in table:
            if key not in allowed:
                raise self.error(key, f"unknown key (known: {', '.join(allowed)})")

    def error(self, key: str, reason: str) -> ConfigError:
        name = f"{self.prefix}.{key}" if self.prefix and key else (self.prefix or key)
        return ConfigError(f"{self.source}: {name}: {reason}")

    def number(self, key: str, default: float, low: float, high: float) -> float:
        value = self.table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.error(key, f"expected a number, got {value!r}")
        if not low <= value <= high:
            raise self.error(key, f"{value} is out of range {low}..{high}")
        return float(value)

    def integer(self, key: str, default: int, low: int, high: int) -> int:
        value = self.table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, f"expected a whole number, got {value!r}")
        if not low <= value <= high:
            raise self.error(key, f"{value} is out of range {low}..{high}")
        return value

    def pin(self, key: str, default: int | None) -> int | None:
        value = self.table.get(key, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 27:
            raise self.error(key, f"expected a BCM pin number 0..27, got {value!r}")
        return value

    def text(self, key: str, default: str) -> str:
        value = self.table.get(key, default)
        if not isinstance(value, str) or not value:
            raise self.error(key, f"expected a non-empty string, got {value!r}")
        return value

    def flag(self, key: str, default: bool) -> bool:
        value = self.table.get(key, default)
        if not isinstance(value, bool):
            raise self.error(key, f"expected true or false, got {value!r}")
        return value

    def pin_pair(self, key: str) -> tuple[int, int] | None:
        value = self.table.get(key)
        if value is None:
            return None
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 27 for v in value)):
            raise self.error(key, f"expected [home_pin, away_pin] (BCM 0..27), got {value!r}")
        return (value[0], value[1])

    def sub(self, key: str, allowed: Sequence[str]) -> _Reader:
        name = f"{self.prefix}.{key}" if self.prefix else key
        return _Reader(self.source, self.table.get(key, {}), name, allowed)


def parse_config(raw: Mapping[str, Any], source: str = "config") -> HardwareConfig:
    """Check a parsed TOML document and build the configuration, or raise ``ConfigError``."""
    top = _Reader(source, raw, "", ("buttons", "encoder", "tray", "displays", "leds", "burn_in"))
    buttons = _parse_buttons(top.sub("buttons", ("pins", "hold_s", "debounce_ms", "tie_window_ms")))
    encoder = _parse_encoder(top.sub("encoder", ("enabled", "a", "b", "push", "push_hold_s")))
    tray = _parse_tray(top.sub("tray", ("enabled", "port", "baud")))
    displays = _parse_displays(source, raw.get("displays"))
    leds_r = top.sub("leds", ("possession", "bonus", "buzzer", "buzzer_s"))
    leds = LedConfig(possession=leds_r.pin_pair("possession"), bonus=leds_r.pin_pair("bonus"),
                     buzzer=leds_r.pin("buzzer", None), buzzer_s=leds_r.number("buzzer_s", 1.0, 0.05, 10))
    burn_r = top.sub("burn_in", ("idle_dim_s", "pixel_shift_minutes", "contrast", "dim_contrast"))
    burn_in = BurnInConfig(idle_dim_s=burn_r.number("idle_dim_s", 300, 0, 86400),
                           pixel_shift_minutes=burn_r.number("pixel_shift_minutes", 5, 0, 1440),
                           contrast=burn_r.integer("contrast", 0xCF, 1, 255),
                           dim_contrast=burn_r.integer("dim_contrast", 0x10, 0, 255))
    config = HardwareConfig(source=source, buttons=buttons, encoder=encoder, tray=tray,
                            displays=displays, leds=leds, burn_in=burn_in)
    _check_pins_unique(config)
    return config


def _parse_buttons(r: _Reader) -> ButtonsConfig:
    pins_table = r.table.get("pins", {})
    pins_r = _Reader(r.source, pins_table, "buttons.pins",
                     tuple(pins_table) if isinstance(pins_table, Mapping) else ())
    pins = dict(DEFAULT_BUTTON_PINS)
    for role in pins_r.table:
        if not role.isupper() or not role.replace("_", "").isalnum():
            raise pins_r.error(role, "a role is an upper-case word like HOME or UNDO")
        value = pins_r.table[role]
        if value is False:  # `ROLE = false` removes a default button nobody wired
            pins.pop(role, None)
            continue
        pin = pins_r.pin(role, None)
        assert pin is not None
        pins[role] = pin
    hold_table = r.table.get("hold_s", {})
    hold_r = _Reader(r.source, hold_table, "buttons.hold_s", tuple(hold_table)
                     if isinstance(hold_table, Mapping) else ())
    hold_s = {role: s for role, s in DEFAULT_HOLD_S.items() if role in pins}
    for role in hold_r.table:
        if role not in pins:
            raise hold_r.error(role, f"no button has the role {role} (roles: {', '.join(pins)})")
        hold_s[role] = hold_r.number(role, 1.0, 0.1, 10.0)
    return ButtonsConfig(pins=pins, hold_s=hold_s, debounce_ms=r.number("debounce_ms", 20, 1, 500),
                         tie_window_ms=r.number("tie_window_ms", 150, 0, 2000))


def _parse_encoder(r: _Reader) -> EncoderConfig | None:
    if not r.flag("enabled", True):
        return None
    a, b = r.pin("a", 17), r.pin("b", 27)
    if a is None or b is None:
        raise r.error("a", "an encoder needs both pins a and b")
    return EncoderConfig(a=a, b=b, push=r.pin("push", 22), push_hold_s=r.number("push_hold_s", 1.0, 0.1, 10))


def _parse_tray(r: _Reader) -> TrayConfig | None:
    if not r.flag("enabled", True):
        return None
    baud = r.integer("baud", 115200, 1200, 4_000_000)
    return TrayConfig(port=r.text("port", "/dev/ttyACM0"), baud=baud)


def _parse_displays(source: str, raw: Any) -> tuple[DisplayConfig, ...]:
    if raw is None:
        return HardwareConfig().displays
    if not isinstance(raw, list):
        raise ConfigError(f"{source}: displays: expected a list of [[displays]] tables")
    keys = ("name", "type", "bus", "address", "port", "device", "dc", "reset", "rotate", "side", "partial")
    displays: list[DisplayConfig] = []
    for index, table in enumerate(raw):
        r = _Reader(source, table, f"displays[{index}]", keys)
        kind = r.text("type", "ssd1306")
        if kind not in DISPLAY_SIZES:
            raise r.error("type", f"unknown display type {kind!r} (known: {', '.join(DISPLAY_SIZES)})")
        name = r.text("name", f"display{index}")
        if any(d.name == name for d in displays):
            raise r.error("name", f"two displays are named {name!r}")
        rotate = r.integer("rotate", 0, 0, 3)
        if rotate not in (0, 2):  # the layouts are landscape; 1 and 3 would make a 64-wide portrait
            raise r.error("rotate", f"expected 0 or 2 (upside down), got {rotate}")
        side = table.get("side")
        if side is not None and side not in (0, 1):
            raise r.error("side", f"expected 0 (home), 1 (away) or no key, got {side!r}")
        dc, reset = r.pin("dc", 24), r.pin("reset", 25)
        displays.append(DisplayConfig(
            name=name, type=kind, bus=r.integer("bus", 1, 0, 1),
            address=r.integer("address", 0x3C, 0x03, 0x77),
            port=r.integer("port", 0, 0, 1), device=r.integer("device", 0, 0, 2),
            dc=dc if dc is not None else 24, reset=reset if reset is not None else 25,
            rotate=rotate, side=side, partial=r.flag("partial", True)))
    seen: dict[tuple[int, int], str] = {}
    for d in displays:
        if d.is_spi:
            continue
        if (d.bus, d.address) in seen:
            raise ConfigError(f"{source}: displays.{d.name}.address: 0x{d.address:02X} on bus {d.bus} "
                              f"is already used by display {seen[(d.bus, d.address)]!r}")
        seen[(d.bus, d.address)] = d.name
    return tuple(displays)


def _check_pins_unique(config: HardwareConfig) -> None:
    """Refuse a BCM pin claimed twice, including pins an I2C or SPI bus in use owns."""
    used: dict[int, str] = {}

    def claim(pin: int | None, key: str) -> None:
        if pin is None:
            return
        if pin in used:
            raise ConfigError(f"{config.source}: {key}: BCM pin {pin} is already used by {used[pin]}")
        used[pin] = key

    for d in config.displays:
        if d.is_spi:
            for pin in SPI_BUS_PINS[d.port]:
                used.setdefault(pin, f"the SPI{d.port} bus (display {d.name!r})")
            ce = SPI_CE_PINS.get((d.port, d.device))
            if ce is not None:
                claim(ce, f"the SPI{d.port} chip select of display {d.name!r}")
        else:
            for pin in I2C_BUS_PINS[d.bus]:
                used.setdefault(pin, f"the I2C{d.bus} bus (display {d.name!r})")
    for role, pin in config.buttons.pins.items():
        claim(pin, f"buttons.pins.{role}")
    if config.encoder is not None:
        claim(config.encoder.a, "encoder.a")
        claim(config.encoder.b, "encoder.b")
        claim(config.encoder.push, "encoder.push")
    for kind in ("possession", "bonus"):
        pair = getattr(config.leds, kind)
        if pair is not None:
            claim(pair[0], f"leds.{kind}[0]")
            claim(pair[1], f"leds.{kind}[1]")
    claim(config.leds.buzzer, "leds.buzzer")
    for d in config.displays:
        if d.is_spi:
            claim(d.dc, f"displays.{d.name}.dc")
            claim(d.reset, f"displays.{d.name}.reset")
