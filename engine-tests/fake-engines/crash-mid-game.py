#!/usr/bin/env python3
"""Fake USI engine 'crash-mid-game' for the match runner's tests; see fakeusi.py."""

import fakeusi

fakeusi.main("crash", "crash-mid-game")
