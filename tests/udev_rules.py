"""A small checker for udev rule files, for machines whose udevadm has no ``verify`` (systemd < 253,
e.g. Debian bookworm's 252), and a matcher for the rule's match keys.

It follows the syntax in udev(7): a rule is one line of comma-separated ``KEY[{attribute}]OP"value"``
pairs; match keys take ``==``/``!=``, assignments ``=``/``+=``/``-=``/``:=``; some keys need an
attribute in braces, some must not have one. It is stricter than udev where udev only warns.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass

MATCH_OPS = frozenset({"==", "!="})
ASSIGN_OPS = frozenset({"=", "+=", "-=", ":="})
# key -> (may match, may assign, attribute: "required", "optional" or "none")
KEYS: dict[str, tuple[bool, bool, str]] = {
    "ACTION": (True, False, "none"), "DEVPATH": (True, False, "none"), "KERNEL": (True, False, "none"),
    "KERNELS": (True, False, "none"), "SUBSYSTEM": (True, False, "none"),
    "SUBSYSTEMS": (True, False, "none"), "DRIVER": (True, False, "none"), "DRIVERS": (True, False, "none"),
    "DEVTYPE": (True, False, "none"), "TAGS": (True, False, "none"), "RESULT": (True, False, "none"),
    "PROGRAM": (True, True, "none"), "ATTRS": (True, False, "required"),
    "CONST": (True, False, "required"), "TEST": (True, False, "optional"),
    "NAME": (True, True, "none"), "SYMLINK": (True, True, "none"), "TAG": (True, True, "none"),
    "ENV": (True, True, "required"), "ATTR": (True, True, "required"), "SYSCTL": (True, True, "required"),
    "OWNER": (False, True, "none"), "GROUP": (False, True, "none"), "MODE": (False, True, "none"),
    "LABEL": (False, True, "none"), "GOTO": (False, True, "none"), "OPTIONS": (False, True, "none"),
    "SECLABEL": (False, True, "required"), "RUN": (False, True, "optional"),
    "IMPORT": (True, True, "required"),
}
PAIR = re.compile(r'\s*(?P<key>[A-Z]+)(?:\{(?P<attr>[^{}"]*)\})?\s*(?P<op>==|!=|\+=|-=|:=|=)\s*'
                  r'"(?P<value>(?:[^"\\]|\\.)*)"\s*')


class RuleSyntaxError(ValueError):
    """A line udev would reject or misread."""


@dataclass(frozen=True)
class Pair:
    key: str
    attr: str | None
    op: str
    value: str


def parse_line(line: str) -> list[Pair]:
    """The key/value pairs of one rule line; raises RuleSyntaxError for anything else."""
    pairs: list[Pair] = []
    rest = line
    while True:
        found = PAIR.match(rest)
        if not found:
            raise RuleSyntaxError(f"not KEY OP \"value\" at: {rest.strip()[:40]!r}")
        key, attr, op, value = found["key"], found["attr"], found["op"], found["value"]
        if key not in KEYS:
            raise RuleSyntaxError(f"unknown key {key}")
        can_match, can_assign, attribute = KEYS[key]
        if op in MATCH_OPS and not can_match:
            raise RuleSyntaxError(f"{key} can only be assigned, not matched with {op}")
        if op in ASSIGN_OPS and not can_assign:
            raise RuleSyntaxError(f"{key} can only be matched, not assigned with {op}")
        if attribute == "required" and not attr:
            raise RuleSyntaxError(f"{key} needs an attribute in braces")
        if attribute == "none" and attr is not None:
            raise RuleSyntaxError(f"{key} takes no attribute")
        if key == "MODE" and not re.fullmatch(r"0?[0-7]{3,4}", value):
            raise RuleSyntaxError(f"MODE must be octal, not {value!r}")
        pairs.append(Pair(key, attr, op, value))
        rest = rest[found.end():]
        if not rest.strip():
            return pairs
        if not rest.startswith(","):
            raise RuleSyntaxError(f"pairs must be separated by commas at: {rest.strip()[:40]!r}")
        rest = rest[1:]


def parse_rules(text: str) -> list[list[Pair]]:
    """Every rule in a rules file (comments and blank lines skipped, backslash continuations joined)."""
    rules = []
    for line in text.replace("\\\n", "").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            rules.append(parse_line(line))
    return rules


def matches(rule: list[Pair], device: dict[str, str]) -> bool:
    """Whether a rule's SUBSYSTEM/KERNEL/ENV matches hold for a device given as udev properties
    (``SUBSYSTEM``, ``KERNEL``, and ENV keys by name), with udev's shell-glob patterns."""
    for pair in rule:
        if pair.op not in MATCH_OPS:
            continue
        have = device.get(pair.attr if pair.key == "ENV" else pair.key, "")  # type: ignore[arg-type]
        hit = any(fnmatch.fnmatchcase(have, pattern) for pattern in pair.value.split("|"))
        if hit != (pair.op == "=="):
            return False
    return True
