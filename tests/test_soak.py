"""Soak, short run: thousands of mock-pin inputs through the real adapters; nothing leaks."""

from __future__ import annotations

from pathlib import Path

from soak_rig import soak


def test_five_thousand_inputs_leak_no_descriptors_or_threads_and_little_memory(tmp_path: Path) -> None:
    report = soak(tmp_path / "soak.db", 5000)
    assert report.inputs >= 5000 and report.commands > 500
    # Other tests' daemon threads and files may still be closing: only growth would be a leak.
    assert report.after["fds"] <= report.before["fds"]
    assert report.after["threads"] <= report.before["threads"]
    assert report.after["rss_kib"] - report.before["rss_kib"] < 30_000
