"""The dice tray line protocol, pure: checksums, refusals by reason, resync, duplicates, fuzzing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import known_dice
from hardware.dice_tray_protocol import (
    MAX_LINE,
    Accepted,
    LineParser,
    SeqWindow,
    TrayProtocol,
    ack,
    checksum,
    expect_line,
    frame,
    refusal,
)
from hardware.inputs import TrayButton, TrayHello, TrayRejected, TrayRoll

DOC = Path(__file__).resolve().parents[1] / "docs" / "dice-tray-protocol.md"


def _one(line: bytes) -> Accepted | TrayRejected:
    items = LineParser().feed(line)
    assert len(items) == 1, items
    return items[0]


def test_checksum_is_the_xor_of_the_bytes_between_dollar_and_star():
    assert checksum("A") == 0x41
    assert checksum("AB") == 0x41 ^ 0x42
    expected = f"{checksum('HELLO,tray,1.0'):02X}".encode()
    assert frame("HELLO,tray,1.0") == b"$HELLO,tray,1.0*" + expected + b"\r\n"


def test_a_roll_of_the_valley_hoopers_d20_is_accepted_with_its_seq():
    item = _one(frame("ROLL,42,d20x5,55"))
    assert isinstance(item, Accepted)
    assert (item.message, item.seq) == (TrayRoll(42, "d20x5", 55), 42)


def test_a_named_foul_die_face_is_accepted_as_its_name():
    item = _one(frame("ROLL,3,d8foul,whistle2"))
    assert isinstance(item, Accepted) and item.message == TrayRoll(3, "d8foul", "whistle2")


def test_hello_and_buttons_are_accepted():
    assert _one(frame("HELLO,tray-v2,1.4.0")).message == TrayHello("tray-v2", "1.4.0")  # type: ignore[union-attr]
    assert _one(frame("BTN,9,reroll,hold")).message == TrayButton(9, "reroll", "hold")  # type: ignore[union-attr]


def test_lower_case_checksum_digits_are_accepted():
    line = frame("ROLL,1,d6,4").replace(b"*", b"*").lower().replace(b"roll", b"ROLL")
    assert isinstance(_one(line), Accepted)


@pytest.mark.parametrize(("line", "reason"), [
    (b"$ROLL,1,d6,4*00\r\n", f"bad checksum: got 00, computed {checksum('ROLL,1,d6,4'):02X}"),
    (b"$ROLL,1,d6,4\r\n", "no checksum: a line ends with *HH"),
    (b"$ROLL,1,d6,4*ZZ\r\n", "checksum 'ZZ' is not two hex digits"),
    (frame("FOO,1"), "unknown type $FOO"),
    (frame("ROLL,3,d8foul,seven"), "the d8foul die has no face 'seven'"),
    (frame("ROLL,3,d20x5,7"), "the d20x5 die has no face 7"),
    # The known dice are every die a registered game declares, plus the plain d20 and d6.
    (frame("ROLL,3,d7,1"), f"unknown die 'd7' (known: {', '.join(known_dice())})"),
    (frame("ROLL,70000,d6,1"), "seq '70000' is not a number 0..65535"),
    (frame("ROLL,-1,d6,1"), "seq '-1' is not a number 0..65535"),
    (frame("ROLL,1,d6"), "$ROLL takes 3 fields (seq,die,face), got 2"),
    (frame("BTN,1,reroll,tap"), "button kind 'tap' is not one of press, release, hold"),
    (b"hello\r\n", "line does not start with $"),
    (b"$ROLL,1,d6,\xff4*00\r\n", "byte 0xFF at position 11 is not printable ASCII"),
])
def test_a_bad_line_is_refused_with_a_reason_an_operator_can_read(line, reason):
    item = _one(line)
    assert isinstance(item, TrayRejected)
    assert item.reason == reason
    assert item.line == line.rstrip(b"\r\n")


def test_a_line_longer_than_82_bytes_is_refused_once_and_the_next_line_still_parses():
    long_line = b"$ROLL," + b"9" * 100 + b"*00\r\n"
    items = LineParser().feed(long_line + frame("ROLL,1,d6,4"))
    assert isinstance(items[0], TrayRejected) and items[0].reason == "line longer than 82 bytes"
    assert [i.message for i in items[1:]] == [TrayRoll(1, "d6", 4)]  # type: ignore[union-attr]


def test_a_line_of_exactly_82_bytes_is_accepted():
    padded = b"$" + b"x" * (MAX_LINE - 6) + b"*01\r\n"
    assert len(padded) == MAX_LINE
    item = _one(padded)
    assert isinstance(item, TrayRejected) and item.reason.startswith("bad checksum")  # length was fine
    one_more = b"$" + b"x" * (MAX_LINE - 5) + b"*01\r\n"
    assert _one(one_more).reason == "line longer than 82 bytes"  # type: ignore[union-attr]
    # The rule is on the text: at most 80 characters from $ to the checksum, whatever the line end.
    bare_lf = b"$" + b"x" * (MAX_LINE - 5) + b"*01\n"
    assert _one(bare_lf).reason == "line longer than 82 bytes"  # type: ignore[union-attr]


def test_a_new_dollar_resyncs_after_a_lost_line_end():
    parser = LineParser()
    items = parser.feed(b"$ROLL,1,d6" + frame("ROLL,2,d6,5"))
    assert isinstance(items[0], TrayRejected) and "cut short" in items[0].reason
    assert items[1].message == TrayRoll(2, "d6", 5)  # type: ignore[union-attr]
    assert parser.drops["incomplete"] == 1


def test_a_roll_is_not_acknowledged_on_arrival_only_when_answered():
    protocol = TrayProtocol()
    events, replies = protocol.receive(frame("ROLL,5,d6,3"))
    assert events == [TrayRoll(5, "d6", 3)] and replies == []
    assert protocol.answer(5, 0, None) == ack(5)


def test_a_roll_resent_while_in_flight_is_applied_once_and_answered_once_recorded():
    protocol = TrayProtocol()
    events, replies = protocol.receive(frame("ROLL,5,d6,3") + frame("ROLL,5,d6,3"))
    assert events == [TrayRoll(5, "d6", 3)]
    assert replies == []  # neither copy is recorded yet
    assert protocol.counters()["duplicate"] == 1
    assert protocol.answer(5, 0, None) == ack(5)
    events, replies = protocol.receive(frame("ROLL,5,d6,3"))  # the ACK was lost on the wire
    assert (events, replies) == ([], [ack(5)])  # acknowledged again, not applied again
    assert protocol.counters()["duplicate"] == 2


def test_a_refused_roll_gets_its_refusal_again_when_resent():
    protocol = TrayProtocol()
    protocol.receive(frame("ROLL,6,d6,3"))
    assert protocol.answer(6, 0, "wrong_die") == refusal(6, "wrong_die") == frame("REJ,6,wrong_die")
    assert protocol.receive(frame("ROLL,6,d6,3")) == ([], [frame("REJ,6,wrong_die")])


def test_a_refusal_reason_that_is_not_one_word_is_sent_as_refused():
    assert refusal(7, "bad, very $bad*") == frame("REJ,7,refused")


def test_button_lines_are_still_acknowledged_on_arrival():
    events, replies = TrayProtocol().receive(frame("BTN,8,reroll,press"))
    assert events == [TrayButton(8, "reroll", "press")] and replies == [ack(8)]


def test_after_hello_the_tray_counter_starts_again_and_seq_zero_is_new():
    protocol = TrayProtocol()
    protocol.receive(frame("ROLL,0,d6,3"))
    events, _ = protocol.receive(frame("HELLO,tray,1.0") + frame("ROLL,0,d6,6"))
    assert events == [TrayHello("tray", "1.0"), TrayRoll(0, "d6", 6, epoch=1)]


def test_an_answer_for_a_roll_read_before_the_tray_restarted_is_not_sent():
    protocol = TrayProtocol()
    protocol.receive(frame("ROLL,0,d6,3"))
    protocol.receive(frame("HELLO,tray,1.0") + frame("ROLL,0,d6,6"))
    assert protocol.answer(0, 0, None) is None  # would acknowledge the new counter's roll 0
    assert protocol.answer(0, 1, None) == ack(0)


def test_seq_window_forgets_old_numbers_so_the_wrapped_counter_is_accepted():
    window = SeqWindow(size=128)
    for seq in range(65400, 65536):
        assert not window.seen(seq)
    for seq in range(0, 200):  # the counter wrapped
        assert not window.seen(seq)
    assert window.seen(199) and window.seen(72)
    assert not window.seen(65535)  # fell out of the window long ago


def test_our_own_lines_echoed_back_are_ignored_silently():
    events, replies = TrayProtocol().receive(ack(3) + refusal(4, "wrong_die") + expect_line("d20x5"))
    assert (events, replies) == ([], [])


def test_expect_names_the_die_or_none():
    assert expect_line("d8foul") == frame("EXPECT,d8foul")
    assert expect_line(None) == frame("EXPECT,none")
    with pytest.raises(ValueError, match="unknown die 'd12'"):
        expect_line("d12")


def test_the_worked_example_in_the_firmware_doc_is_what_the_code_computes():
    text = DOC.read_text()
    examples = re.findall(r"`(\$[A-Z]+,[^`*]*)\*([0-9A-F]{2})`", text)
    assert len(examples) >= 4
    for line, hh in examples:
        assert f"{checksum(line[1:]):02X}" == hh, line
    worked = re.search(r"XOR of .*? = 0x([0-9A-F]{2})", text, re.S)
    assert worked is not None and int(worked.group(1), 16) == checksum("ROLL,17,d20x5,55")


VALID_BODIES = st.one_of(
    st.builds(lambda s, f: f"ROLL,{s},d20x5,{f}", st.integers(0, 65535), st.sampled_from(range(5, 101, 5))),
    st.builds(lambda s, f: f"ROLL,{s},d8foul,{f}", st.integers(0, 65535),
              st.sampled_from(["whistle", "whistle2", "whistle3", "charge", "jumpball", "blank"])),
    st.builds(lambda s, k: f"BTN,{s},b1,{k}", st.integers(0, 65535), st.sampled_from(["press", "hold"])),
    st.just("HELLO,tray,1.0"),
)


def _chunks(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    pieces, last = [], 0
    for p in points + [len(data)]:
        pieces.append(data[last:p])
        last = p
    return pieces


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=600), cuts=st.lists(st.integers(0, 10_000), max_size=30))
def test_random_bytes_never_crash_stay_bounded_and_never_pass_a_bad_checksum(data, cuts):
    parser = LineParser()
    for piece in _chunks(data, cuts):
        for item in parser.feed(piece):
            if isinstance(item, Accepted):
                assert item.line in data
                assert int(item.line[-2:], 16) == checksum(item.line[1:-3])
        assert parser.buffered <= MAX_LINE


@settings(max_examples=200, deadline=None)
@given(bodies=st.lists(VALID_BODIES, min_size=1, max_size=12),
       noise=st.lists(st.binary(max_size=30).map(
           lambda b: b.replace(b"$", b"").replace(b"\n", b"") + b"\r\n"), max_size=12),
       cuts=st.lists(st.integers(0, 10_000), max_size=40))
def test_valid_lines_between_noise_lines_all_come_through_whatever_the_chunking(bodies, noise, cuts):
    stream = b""
    for i, body in enumerate(bodies):
        stream += noise[i] if i < len(noise) else b""
        stream += frame(body)
    parser = LineParser()
    accepted = []
    for piece in _chunks(stream, cuts):
        accepted += [i for i in parser.feed(piece) if isinstance(i, Accepted)]
    assert [a.line for a in accepted] == [frame(b).rstrip(b"\r\n") for b in bodies]
