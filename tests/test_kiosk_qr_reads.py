"""The game end screen's QR code, read back by a real reader: zbar's ``zbarimg`` (Debian's zbar-tools,
installed by ``.ci/run`` beside Xvfb) decodes the picture the kiosk shows (``kiosk.qr.qr_png``, the
PNG ``qr_texture`` loads) and must give back exactly the summary the kiosk meant to encode, newlines,
"·" and accented names included. A reader that answered anything else, or a code made from other
words, fails here."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from companion.frontend import game_info
from companion.games import find_game
from kiosk import end_summary
from kiosk.qr import qr_png

VH_INFO = json.loads(json.dumps(game_info(find_game("valley-hoopers"))))
ZBARIMG = shutil.which("zbarimg") or "/usr/bin/zbarimg"


def read_qr(png: bytes, folder: Path) -> list[str]:
    """Every QR code zbar finds in the picture, as text (``--raw``: the data alone, one symbol a line
    with its own newlines kept, so a single code's text is everything but the last newline)."""
    picture = folder / "code.png"
    picture.write_bytes(png)
    found = subprocess.run([ZBARIMG, "--raw", "--quiet", "-Sdisable", "-Sqrcode.enable", str(picture)],
                           capture_output=True, timeout=30)
    assert found.returncode in (0, 4), found.stderr.decode(errors="replace")  # 4: no code found
    text = found.stdout.decode("utf-8")
    return [text[:-1]] if text else []


def scaled(png: bytes, factor: float) -> bytes:
    """The picture as the screen draws it: scaled with square modules (the texture's "nearest")."""
    with Image.open(io.BytesIO(png)) as image:
        bigger = image.convert("L").resize((round(image.width * factor), round(image.height * factor)),
                                           Image.Resampling.NEAREST)
    out = io.BytesIO()
    bigger.save(out, format="PNG")
    return out.getvalue()


def final_summary(home: str = "Lucy", away: str = "Karl") -> str:
    """A finished Valley Hoopers game's summary, as the end screen builds it from the snapshot."""
    totals = [{"side": side, "name": "Team total", "total": True, "points": points, "fg": fg, "3p": "1-4",
               "ft": "4-6"} for side, points, fg in ((home, 21, "8-17"), (away, 17, "7-20"))]
    hooper = {"side": home, "name": "Serge Ceptor", "points": 13, "fg": "5-9", "3p": "1-3", "ft": "2-2"}
    snapshot = {"scoreboard": {"sides": [{"name": home, "score": 21}, {"name": away, "score": 17}]},
                "view": {"partial_scores": [[16, 11], [5, 6]], "box_score": [hooper, *totals]},
                "outcome": {"winner": 0, "reason": "21-17 after P2 · overtime"}}
    return end_summary.summary_text(snapshot, VH_INFO, "Valley Hoopers")


@pytest.mark.parametrize("home", ["Lucy", "Jörg", "Zoë € Ångström"])
def test_the_end_screens_qr_code_reads_back_as_the_summary_it_encodes(home: str, tmp_path: Path) -> None:
    text = final_summary(home)
    assert "\n" in text and "Valley Hoopers: final" in text
    png = qr_png(text)
    assert read_qr(png, tmp_path) == [text]
    # Drawn larger, as on the screen (the large code is 200 px or more): still the same words.
    assert read_qr(scaled(png, 2.5), tmp_path) == [text]


def test_the_longest_summary_the_kiosk_encodes_still_reads(tmp_path: Path) -> None:
    text = final_summary("A" * 40, "B" * 40)
    text = (text + "\n" + "x" * end_summary.MOST_CHARACTERS)[:end_summary.MOST_CHARACTERS]
    assert read_qr(qr_png(text), tmp_path) == [text]


def test_a_code_made_from_other_words_does_not_read_as_the_summary(tmp_path: Path) -> None:
    """The check can fail: a code of a different final score reads as that score, not the summary's."""
    text = final_summary()
    other = text.replace("Lucy 21 - 17 Karl", "Lucy 17 - 21 Karl")
    assert other != text
    assert read_qr(qr_png(other), tmp_path) == [other] != [text]


def test_a_picture_with_its_code_covered_reads_as_nothing(tmp_path: Path) -> None:
    """The reader really reads the picture: with the middle half painted over, beyond what error
    correction M restores, no code is found."""
    with Image.open(io.BytesIO(qr_png(final_summary()))) as image:
        covered = image.convert("L")
    quarter = covered.width // 4
    covered.paste(255, (quarter, quarter, 3 * quarter, 3 * quarter))
    out = io.BytesIO()
    covered.save(out, format="PNG")
    assert read_qr(out.getvalue(), tmp_path) == []
