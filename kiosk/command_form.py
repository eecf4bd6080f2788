"""A form for a command the prompt offers without a ready choice (a strategy card and what it does),
drawn from the command's declared fields (``game_info``'s ``commands``): choices as buttons, numbers
on a keypad, an object's parts behind its heading. It is sent as one command; a refusal stays in the
form with the service's words. No rule here: the service checks everything the form sends.

The pure part (which commands get a form, what the form sends) needs no window:

>>> spec = {"type": "play_card", "fields": [
...     {"name": "side", "kind": "side", "required": True},
...     {"name": "card", "kind": "text", "required": True, "options": "/sides/{side}/cards"},
...     {"name": "bonus", "kind": "int", "min": -20, "max": 20},
...     {"name": "adjust", "kind": "object", "parts": [{"name": "pts", "kind": "int"}]}]}
>>> roll = {"type": "roll", "fields": [{"name": "face", "kind": "face"}]}
>>> [s["type"] for s in open_commands({"commands": ["roll", "play_card"], "die": "d20"},
...                                   {"commands": [spec, roll]})]
['play_card']
>>> form_command(spec, {"side": 1, "card": "Drive", "adjust.pts": 2})
{'type': 'play_card', 'side': 1, 'card': 'Drive', 'adjust': {'pts': 2}}
>>> missing_fields(spec, {"side": 0})
['card']
>>> field_options(spec["fields"][1], {"sides": [{"cards": ["A"]}, {"cards": ["B", "C"]}]}, {"side": 1})
['B', 'C']
>>> typed_number("", "1"), typed_number("1", "5"), typed_number("15", "-"), typed_number("-15", "clear")
('1', '15', '-15', '')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk import parts

JSON = dict[str, Any]
KEYPAD = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "-", "0", "clear")
NUMBER_KINDS = ("int", "face")


def _fields(spec: JSON) -> list[JSON]:
    return [f for f in spec.get("fields") or [] if isinstance(f, dict) and f.get("name")]


def open_commands(prompt: JSON | None, info: JSON | None) -> list[JSON]:
    """The declared commands the prompt allows that nothing else on the screen sends: no choice sends
    them, the die pad does not (a command taking a die face while a die is awaited), nor a sealed or
    race pad, nor the card editor."""
    prompt = prompt or {}
    sent = {c["command"].get("type") for c in prompt.get("choices") or []
            if isinstance(c, dict) and isinstance(c.get("command"), dict)}
    for special in ("sealed", "race"):
        if isinstance(prompt.get(special), dict):
            sent.add(prompt[special].get("command"))
    # A card is completed in the card editor (the Table screen opens it), not in a second form.
    sent.add(((info or {}).get("card_form") or {}).get("enter_command", {}).get("type"))
    declared = {str(s.get("type")): s for s in (info or {}).get("commands") or [] if isinstance(s, dict)}
    found = []
    for kind in prompt.get("commands") or []:
        spec = declared.get(str(kind))
        if spec is None or kind in sent:
            continue
        if prompt.get("die") and any(f.get("kind") == "face" for f in _fields(spec)):
            continue  # the die pad, the tray and the encoder send it
        found.append(spec)
    return found


def words(name: str) -> str:
    """A field or command name as the table reads it: ``roll_bonus`` -> ``Roll bonus``."""
    return name.replace("_", " ").strip().capitalize()


def form_title(spec: JSON) -> str:
    return words(str(spec.get("type", "")))


def field_options(field: JSON, view: Any, values: JSON) -> list[Any]:
    """The values a field offers: its declared choices, else the list at its ``options`` path in the
    view (``{side}``: the side the form has picked), else none (typed in)."""
    if field.get("choices"):
        return list(field["choices"])
    path = str(field.get("options") or "")
    if not path:
        return []
    side = values.get("side")
    if "{side}" in path and not isinstance(side, int):
        return []
    found = parts.lookup(view, path.replace("{side}", str(side)))
    return [v for v in found if isinstance(v, str | int)] if isinstance(found, list) else []


def flat_fields(spec: JSON, prefix: str = "") -> list[tuple[str, JSON, int]]:
    """Every field of the form as ``(dotted key, field, depth)``, an object's parts after it."""
    found = []
    for field in _fields(spec):
        key = f"{prefix}{field['name']}"
        found.append((key, field, prefix.count(".")))
        if field.get("parts"):
            found += flat_fields({"fields": field["parts"]}, key + ".")
    return found


def form_command(spec: JSON, values: JSON) -> JSON:
    """The command the form sends: its type and the entered values, nested by their dotted keys
    (an object with nothing entered is left out)."""
    command: JSON = {"type": spec.get("type")}
    for key, value in values.items():
        if value is None or value == "" or value == []:
            continue
        target = command
        steps = key.split(".")
        for step in steps[:-1]:
            target = target.setdefault(step, {})
        target[steps[-1]] = value
    return command


def missing_fields(spec: JSON, values: JSON) -> list[str]:
    """The required top-level fields with nothing entered (the form asks for them before sending)."""
    return [f["name"] for f in _fields(spec) if f.get("required") and values.get(f["name"]) in (None, "", [])]


def typed_number(text: str, key: str) -> str:
    """The keypad's text after one key: digits append, ``-`` flips the sign, ``clear`` empties."""
    if key == "clear":
        return ""
    if key == "-":
        return text[1:] if text.startswith("-") else "-" + text
    digits = text.lstrip("-")
    return (text[:1] if text.startswith("-") else "") + (digits + key if len(digits) < 4 else digits)


def number_value(text: str) -> int | None:
    return int(text) if text.lstrip("-").isdigit() else None


def shown_value(field: JSON, value: Any, side_names: list[str]) -> str:
    if value is None or value == "" or value == []:
        return "-"
    if field.get("kind") == "side" and isinstance(value, int) and 0 <= value < len(side_names):
        return side_names[value]
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def entered_words(spec: JSON, values: JSON, side_names: list[str]) -> str:
    """What the form holds so far, in the fields' order: the line over the fields that keeps a
    choice readable once its button has scrolled out of sight.

    >>> spec = {"fields": [{"name": "card", "kind": "choice"}, {"name": "roll_bonus", "kind": "int"}]}
    >>> entered_words(spec, {"card": "Demo Drive", "roll_bonus": 2}, [])
    'Card: Demo Drive · Roll bonus: 2'
    >>> entered_words(spec, {}, [])
    'Nothing picked yet'
    """
    shown = [f"{words(key.rsplit('.', 1)[-1])}: {shown_value(field, values[key], side_names)}"
             for key, field, _depth in flat_fields(spec) if values.get(key) not in (None, "", [])]
    return " · ".join(shown) if shown else "Nothing picked yet"


Sender = Callable[[JSON, Callable[[JSON], None]], None]


FEW = 2  # up to this many get a button each on the play screen; more share one "More plays" button


def open_form(app: Any, spec: JSON, prompt: JSON) -> Any:
    """Open the form for ``spec`` over the play screen (the widget lives in ``command_form_view``)."""
    from kiosk.command_form_view import CommandForm

    form = CommandForm(app=app, spec=spec, prompt=prompt)
    form.open()
    return form


def open_chooser(app: Any, specs: list[JSON], prompt: JSON, opened: Callable[[Any], None]) -> Any:
    """A list of the commands (one button each) that opens the picked one's form."""
    from kiosk.command_form_view import CommandChooser

    chooser = CommandChooser(app=app, specs=specs, prompt=prompt, opened=opened)
    chooser.open()
    return chooser
